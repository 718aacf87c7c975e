/** Sizes and repetitions of every case, for the full run and for `--quick` (CI keeps the benchmarks working). */
import { flag } from '../support/args';

/** What each case measures and how often. */
export interface BenchSettings {
  quick: boolean;
  /** Case numbers to run (`--only=1,3`); all when empty. */
  only: number[];
  client: { chunks: number; rounds: number; warmup: number; sseRounds: number };
  render: {
    smallBytes: number;
    smallChunks: number;
    /**
     * The naive renderer runs on every `naiveEvery`-th chunk only and its time is scaled by that factor:
     * rendering all 4,000 chunks naively takes over ten minutes here. 1 = every chunk.
     */
    naiveEvery: number;
    smallRounds: number;
    largeBytes: number;
    largeChunks: number;
    largeRounds: number;
    /** Chunks delivered per animation frame in the frame-batched run (the view renders once per frame). */
    chunksPerFrame: number;
  };
  history: { messages: number; bytes: number; rounds: number };
  startup: { starts: number };
  images: { size: '1024x1024' | '2048x2048' | '4096x4096'; side: number; counts: number[]; rounds: number };
  /**
   * Case 7: files of the generated workspace, rounds in the extension host and the webview, the large
   * attachment's size, and the messages and sends of the end-to-end send path.
   */
  context: {
    files: number;
    rounds: number;
    webRounds: number;
    attachmentBytes: number;
    messages: number;
    sends: number;
    /** `--send-path`: case 7 measures its send path only (the host share and the real editor), no picker. */
    sendPathOnly: boolean;
    /**
     * `--cpu-prof`: the host share also writes a CPU profile of its sends (test-results/bench/host-share.cpuprofile),
     * taken with the development build (dist/ of `npm run build:tests`, readable names) instead of the staged one.
     */
    cpuProfile: boolean;
  };
  /**
   * Case 9 in the extension host: measured rounds (provider and by hand each) after warm-up rounds, keystrokes
   * of the storm, characters typed through the suggestion (0: all but the last); rounds of the plain-Node part.
   */
  completions: {
    rounds: number;
    warmup: number;
    stormKeys: number;
    throughChars: number;
    plainRounds: number;
  };
  /**
   * Case 11: runs of the text-protocol parser over the 1 MB answer; case 13: 30-step agent runs measured (and
   * warm-up runs) for the loop's overhead in plain Node; case 14: Agent-mode runs in the extension host (and
   * warm-up runs); case 15: rounds of the 30-step run in the webview (each with and without its tool rows).
   */
  agent: {
    parserRounds: number;
    runs: number;
    warmup: number;
    hostRuns: number;
    hostWarmup: number;
    webRounds: number;
  };
}

/** Reads `--quick` and `--only=` from argv. */
export function settingsFrom(argv: readonly string[]): BenchSettings {
  const quick = argv.includes('--quick');
  const onlyArg = flag('only', argv) ?? '';
  const sendPathOnly = argv.includes('--send-path');
  const cpuProfile = argv.includes('--cpu-prof');
  const only = onlyArg
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  if (quick) {
    return {
      quick,
      only,
      client: { chunks: 2000, rounds: 8, warmup: 8, sseRounds: 3 },
      render: {
        smallBytes: 200_000,
        smallChunks: 4000,
        naiveEvery: 40,
        smallRounds: 1,
        largeBytes: 250_000,
        largeChunks: 5000,
        largeRounds: 1,
        chunksPerFrame: 16,
      },
      history: { messages: 400, bytes: 800_000, rounds: 1 },
      startup: { starts: 1 },
      images: { size: '2048x2048', side: 2048, counts: [1], rounds: 1 },
      context: {
        files: 10_000,
        rounds: 1,
        webRounds: 1,
        attachmentBytes: 1_000_000,
        messages: 400,
        sends: 3,
        sendPathOnly,
        cpuProfile,
      },
      completions: { rounds: 3, warmup: 1, stormKeys: 30, throughChars: 12, plainRounds: 5 },
      agent: { parserRounds: 5, runs: 3, warmup: 1, hostRuns: 1, hostWarmup: 1, webRounds: 1 },
    };
  }
  return {
    quick,
    only,
    // The two clients' times to first token are a few tenths of a millisecond apart: 60 pairs, for a median
    // that holds still from run to run.
    client: { chunks: 2000, rounds: 60, warmup: 15, sseRounds: 8 },
    render: {
      smallBytes: 200_000,
      smallChunks: 4000,
      naiveEvery: 20,
      smallRounds: 2,
      largeBytes: 1_000_000,
      largeChunks: 20_000,
      // Per-chunk times are a tenth of a millisecond: one run's first-vs-last ratio follows the machine's noise.
      largeRounds: 3,
      chunksPerFrame: 16,
    },
    history: { messages: 400, bytes: 800_000, rounds: 3 },
    startup: { starts: 5 },
    images: { size: '4096x4096', side: 4096, counts: [1, 4], rounds: 2 },
    context: {
      files: 50_000,
      rounds: 5,
      webRounds: 3,
      attachmentBytes: 1_000_000,
      messages: 400,
      sends: 11,
      sendPathOnly,
      cpuProfile,
    },
    // The storm is 200 keystrokes; the suggestion is typed through to its last character.
    completions: { rounds: 40, warmup: 2, stormKeys: 200, throughChars: 0, plainRounds: 60 },
    agent: { parserRounds: 15, runs: 20, warmup: 3, hostRuns: 6, hostWarmup: 1, webRounds: 3 },
  };
}

/** Whether case `n` is selected. */
export function selected(settings: BenchSettings, n: number): boolean {
  return settings.only.length === 0 || settings.only.includes(n);
}
