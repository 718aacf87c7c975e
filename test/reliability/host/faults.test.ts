// Fault matrix of the editor commands (Generate Code, Explain Selection, Generate Image) in the real
// extension host: one `it` per row of faultCases.ts. Each row checks the message shown, what is kept or
// restored, that the command works again, and that nothing leaked or was reported as an unhandled error.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Emulator, type RecordedRequest } from '../../gateway-emulator';
import { keyedEmulator, setKey, setSetting } from '../../integration/helpers';
import { setSettings, useSettingsRestored } from '../../support/settings';
import { HOST_FAULT_CASES, MATRIX_SETTINGS, caseTitle, type FaultCase } from './faultCases';
import {
  RejectionWatch,
  errorEntries,
  extHostLog,
  gatewayLog,
  resourceCounts,
  settleResources,
  waitFor,
  type LogTail,
  type ResourceCounts,
} from './faultProbes';
import {
  IMAGE_FOLDER,
  gatewayCalls,
  runExplain,
  runGenerateCode,
  runGenerateImage,
  type FaultContext,
} from './faultRunners';
import { sleep } from '../../support/poll';

/** Every setting the matrix changes (restored afterwards). */
const CHANGED_SETTINGS = [
  'baseUrl',
  'images.folder',
  ...new Set(HOST_FAULT_CASES.flatMap((c) => Object.keys({ ...MATRIX_SETTINGS, ...c.settings }))),
];

const RUNNERS = { code: runGenerateCode, explain: runExplain, image: runGenerateImage };

describe('Fault matrix: editor commands in the real extension host', function () {
  this.timeout(60_000);
  let emulator: Emulator;
  let log: LogTail;
  let hostLog: LogTail;
  let rejections: RejectionWatch;
  let suiteBaseline: ResourceCounts;
  // Later suites of the same run find the settings as they were before the matrix.
  useSettingsRestored(CHANGED_SETTINGS);
  /** Background rows and how they ended (undefined: passed). */
  const background = new Map<FaultCase, Promise<unknown>>();

  before(async function () {
    this.timeout(120_000);
    // The emulator runs in this process; its stalls last longer than any time-out of the matrix.
    emulator = await keyedEmulator({ stallMs: 30_000 });
    // Another suite may have left an edit under review; the matrix starts from a clean editor.
    await vscode.commands.executeCommand('modelGateway.rejectEdit');
    await setSetting('baseUrl', emulator.url);
    await setSetting('images.folder', IMAGE_FOLDER);
    await setSettings(MATRIX_SETTINGS);
    await setKey();
    log = gatewayLog();
    hostLog = extHostLog();
    rejections = new RejectionWatch();
    // Warm-up: the chat view, the connection pool and the image path exist before the first baseline.
    for (const feature of ['code', 'explain', 'image'] as const) {
      await RUNNERS[feature](
        { feature, fault: 'keepalive', outcome: 'recovered' },
        context(`warm-up-${feature}`),
      );
    }
    suiteBaseline = await quietCounts();
    // Started now, checked in their own `it` below (its leaks by the whole-matrix check at the end).
    HOST_FAULT_CASES.forEach((c, index) => {
      if (!c.background) return;
      const run = RUNNERS[c.feature](c, context(`${c.feature}-${index}`, gatewayLog()));
      background.set(
        c,
        run.then(
          () => undefined,
          (error: unknown) => error,
        ),
      );
    });
  });

  after(async () => {
    rejections?.dispose();
    await emulator?.close();
  });

  const context = (slug: string, caseLog = log): FaultContext => ({ emulator, log: caseLog, slug });

  HOST_FAULT_CASES.forEach((c, index) => {
    if (c.background) return;
    it(caseTitle(c), async function () {
      if (c.timeoutMs) this.timeout(c.timeoutMs + 30_000);
      await setSettings({ ...MATRIX_SETTINGS, ...c.settings });
      emulator.reset();
      log.mark();
      // Evidence is checked, never discarded: what the previous case (or a background row) caused after its
      // own checks lands here, e.g. an unhandled rejection VS Code writes to its log about a second late.
      assert.deepEqual(rejections.take(), [], 'no unhandled rejection since the previous case');
      assert.deepEqual(
        errorEntries(hostLog.take()),
        [],
        'no error in the extension host log since the previous case',
      );
      const baseline = resourceCounts();

      await RUNNERS[c.feature](c, context(`${c.feature}-${index}`));

      const calls = gatewayCalls(emulator);
      if (c.attempts !== undefined) {
        // The fault's own attempts, then the clean run of the command.
        assert.equal(calls.length - 1, c.attempts, 'requests caused by the fault');
      }
      if (c.minRetryGapMs !== undefined) {
        const gap = calls[c.attempts! - 1].receivedAt - calls[0].receivedAt;
        assert.ok(gap >= c.minRetryGapMs, `Retry-After honoured: retried after ${gap} ms`);
      }
      // A reset fault has the emulator drop the connection itself; every other exchange must be over.
      const resetByServer = (r: RecordedRequest): boolean =>
        /reset-/.test(c.fault) && JSON.stringify(r.body).includes(`[[fault:${c.fault}]]`);
      await waitFor(
        () =>
          emulator.requests.every((r) => r.responseEnded || r.clientClosed || resetByServer(r))
            ? true
            : undefined,
        'every request to the gateway to be over (no socket left open)',
        10_000,
      );
      assert.deepEqual(rejections.take(), [], 'no unhandled rejection');
      assert.deepEqual(errorEntries(hostLog.take()), [], 'no error in the extension host log');
      assert.deepEqual(await settleResources(baseline), [], 'no sockets, timers or listeners left over');
    });
  });

  HOST_FAULT_CASES.forEach((c) => {
    if (!c.background) return;
    it(`${caseTitle(c)} (ran alongside the rows above)`, async function () {
      this.timeout((c.timeoutMs ?? 60_000) + 30_000);
      const failure = await background.get(c);
      if (failure !== undefined) throw failure;
    });
  });

  it('leaves no resources behind over the whole matrix', async () => {
    await Promise.all(background.values());
    // VS Code reports an unhandled rejection a second after it happens: give the last case that time.
    await sleep(1500);
    assert.deepEqual(errorEntries(hostLog.take()), [], 'no error in the extension host log');
    assert.deepEqual(rejections.take(), [], 'no unhandled rejection');
    assert.deepEqual(await settleResources(suiteBaseline), [], 'no growth since the warm-up');
  });
});

/** Counts once the warm-up's connections and timers have had a moment to close. */
async function quietCounts(): Promise<ResourceCounts> {
  await sleep(1000);
  return resourceCounts();
}
