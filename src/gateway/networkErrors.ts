/** Maps socket-level failures and the client's own timers to typed errors with advice. */

import * as l10n from '@vscode/l10n';
import { ConnectionError, type GatewayError, TimeoutError, type TimeoutPhase, redactSecret } from './errors';

export interface NetworkContext {
  origin: string;
  firstByteMs: number;
  idleMs: number;
  /** The answer body had started: the failure is mid-answer, and nothing may be retried. */
  bodyStarted: boolean;
  /** Status and headers had arrived. */
  responded: boolean;
  secret?: string;
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/i;

/** The error code of an error or of its cause chain ('' when there is none). */
function errorCode(e: unknown): string {
  if (typeof e !== 'object' || e === null) return '';
  const code = (e as { code?: unknown }).code;
  const cause = (e as { cause?: unknown }).cause;
  return typeof code === 'string' ? code : cause ? errorCode(cause) : '';
}

function duration(ms: number): string {
  return ms < 1000 ? l10n.t('{0} ms', ms) : l10n.t('{0} s', Math.round(ms / 1000));
}

/** The TimeoutError for a phase; only a connect time-out is retryable (nothing was sent). */
export function timeoutError(phase: TimeoutPhase, ctx: NetworkContext, cause?: unknown): TimeoutError {
  const message =
    phase === 'connect'
      ? l10n.t(
          'Connecting to the gateway at {0} timed out. Check the base URL, your network and proxy settings.',
          ctx.origin,
        )
      : phase === 'first_byte'
        ? l10n.t(
            'The gateway did not start answering within {0}. Try again, or raise the time-out in the settings.',
            duration(ctx.firstByteMs),
          )
        : l10n.t(
            'The gateway sent nothing for {0} in the middle of the answer. Try again, or raise the idle time-out in the settings.',
            duration(ctx.idleMs),
          );
  return new TimeoutError(phase, message, { cause, retryable: phase === 'connect' });
}

/** Maps an undici/socket error (not an abort) to ConnectionError or TimeoutError. */
export function networkError(e: unknown, ctx: NetworkContext): GatewayError {
  const code = errorCode(e);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return timeoutError('connect', ctx, e);
  const detail = code || redactSecret(e instanceof Error ? e.message : String(e), ctx.secret);
  if (TLS_CODES.test(code)) {
    // Certificates do not fix themselves between attempts: no retry.
    return new ConnectionError(
      l10n.t(
        'The secure connection to {0} failed ({1}). Check the base URL, proxy and certificate settings.',
        ctx.origin,
        code,
      ),
      { cause: e, code },
    );
  }
  if (ctx.bodyStarted) {
    return new ConnectionError(
      l10n.t(
        'The connection to {0} broke while the answer was arriving ({1}). Try again.',
        ctx.origin,
        detail,
      ),
      { cause: e, code: code || undefined },
    );
  }
  if (ctx.responded) {
    return new ConnectionError(
      l10n.t(
        'The gateway at {0} closed the connection before sending an answer ({1}). Try again.',
        ctx.origin,
        detail,
      ),
      { cause: e, code: code || undefined, retryable: true },
    );
  }
  return new ConnectionError(
    l10n.t(
      'Could not reach the gateway at {0} ({1}). Check the base URL, your network and proxy settings.',
      ctx.origin,
      detail,
    ),
    { cause: e, code: code || undefined, retryable: true },
  );
}
