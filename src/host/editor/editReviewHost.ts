// The edit review as activation sees it: its commands, registered at once, and the review's run-time
// (reviewRuntime.ts), required on first use. In the shipped bundle `./reviewRuntime` is the separate
// dist/review.js (esbuild.mjs), so a window that never generates or applies code never parses it.
import * as vscode from 'vscode';
import { AUTO_SAVE_NOTE_KEY } from '../../review/autoSave';
import type { ReviewModel } from '../../review/model';
import { registerCommand } from '../ourCommands';
import type { ReviewSnapshot } from './editReview';
import type { ApplyRequest } from './applyBlock';
import type { GenerateCodeOptions } from './generateCode';
import type { FileReviewHooks, ReviewController } from './reviewController';
import type { ReviewRuntime, ReviewRuntimeDeps } from './reviewRuntime';

const NOTHING_SHOWN: ReviewSnapshot = { added: [], removed: [], hunks: 0 };

function reviewRuntime(): typeof import('./reviewRuntime') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./reviewRuntime') as typeof import('./reviewRuntime');
}

/** Generate Code's review, where Apply and an agent run's changed files open too; loads its run-time lazily. */
export class EditReviewHost implements vscode.Disposable {
  private runtime: ReviewRuntime | undefined;
  private memento: vscode.Memento | undefined;

  constructor(private readonly deps: ReviewRuntimeDeps) {}

  /** True while an edit streams or waits for review. */
  get busy(): boolean {
    return this.runtime?.controller.busy ?? false;
  }

  /** What the review's decorations show, for tests. */
  get snapshot(): ReviewSnapshot {
    return this.runtime?.controller.snapshot ?? NOTHING_SHOWN;
  }

  /**
   * Ends an auto-save suspension an earlier session left behind (loading the run-time only then), and has the
   * run-time note its own suspensions in `memento`.
   */
  recoverAutoSave(memento: vscode.Memento): Promise<void> {
    this.memento = memento;
    if (this.runtime || memento.get(AUTO_SAVE_NOTE_KEY) !== undefined)
      return this.loaded().controller.recoverAutoSave(memento);
    return Promise.resolve();
  }

  /** See ReviewController.openFileReview. */
  openFileReview(
    document: vscode.TextDocument,
    original: string,
    hooks: FileReviewHooks,
  ): number | undefined {
    return this.loaded().controller.openFileReview(document, original, hooks);
  }

  /** See ReviewController.endFileReview; nothing is open before the run-time is loaded. */
  endFileReview(uri: vscode.Uri): ReviewModel | undefined {
    return this.runtime?.controller.endFileReview(uri);
  }

  /** The run-time when it was loaded already. */
  get current(): ReviewRuntime | undefined {
    return this.runtime;
  }

  /** The run-time, required and built on first use. */
  loaded(): ReviewRuntime {
    if (this.runtime) return this.runtime;
    const runtime = reviewRuntime().createReviewRuntime(this.deps);
    this.runtime = runtime;
    if (this.memento) void runtime.controller.recoverAutoSave(this.memento);
    return runtime;
  }

  dispose(): void {
    this.runtime?.controller.dispose();
  }
}

/** Registers Generate Code, Apply and the review commands; the run-time loads when one first needs it. */
export function registerEditReview(deps: ReviewRuntimeDeps): EditReviewHost {
  const host = new EditReviewHost(deps);
  // Without the run-time no review is open: the review commands have nothing to act on.
  const ifLoaded = <T>(act: (controller: ReviewController) => T, none: T): T => {
    const runtime = host.current;
    return runtime ? act(runtime.controller) : none;
  };
  const no = Promise.resolve(false);
  deps.context.subscriptions.push(
    host,
    registerCommand('modelGateway.generateCode', (options?: GenerateCodeOptions) =>
      host.loaded().generate(options),
    ),
    registerCommand('modelGateway.applyCodeBlock', (request: ApplyRequest) => host.loaded().apply(request)),
    registerCommand('modelGateway.acceptEdit', () => ifLoaded((c) => c.acceptAll(), false)),
    registerCommand('modelGateway.rejectEdit', () => ifLoaded((c) => c.rejectAll(), no)),
    registerCommand('modelGateway.acceptHunk', (id?: number) => ifLoaded((c) => c.acceptHunk(id), false)),
    registerCommand('modelGateway.rejectHunk', (id?: number) => ifLoaded((c) => c.rejectHunk(id), no)),
    registerCommand('modelGateway.nextHunk', () => ifLoaded((c) => c.reveal(1), no)),
    registerCommand('modelGateway.previousHunk', () => ifLoaded((c) => c.reveal(-1), no)),
  );
  return host;
}
