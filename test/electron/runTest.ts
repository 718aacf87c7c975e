// `npm run test:electron`: the same integration suite in desktop VS Code via @vscode/test-electron.
// Needs internet access to download VS Code (not available on the CI machines, which use code-server).
// VSCODE_TEST_VERSION picks the build ('stable', 'insiders' or e.g. '1.104.0'); `--min` uses engines.vscode.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import type { TestResults } from '../integration/index';
import { integrationEntry, repoRoot, resultsDir, toolFixtureExtension } from '../harness/paths';
import { printSummary } from '../harness/runExtensionTests';
import { makeWorkspace, startGateway } from '../harness/workspace';

/** The VS Code version to test with. */
function version(): string {
  if (process.argv.includes('--min')) {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      engines: { vscode: string };
    };
    return manifest.engines.vscode.replace(/^[^\d]*/, '');
  }
  return process.env.VSCODE_TEST_VERSION ?? 'stable';
}

/** Runs the suite in desktop VS Code and resolves with the exit code. */
export async function main(): Promise<number> {
  const gateway = await startGateway(process.env.MODEL_GATEWAY_EMULATOR_URL);
  const workspace = makeWorkspace();
  const profile = mkdtempSync(join(tmpdir(), 'mg-electron-'));
  const resultsFile = join(resultsDir('integration'), 'results-electron.json');
  rmSync(resultsFile, { force: true });
  try {
    const userDataDir = join(profile, 'user-data');
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    const settings = {
      'modelGateway.baseUrl': gateway.url,
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'security.workspace.trust.enabled': false,
    };
    writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    const code = await runTests({
      version: version(),
      // Model Gateway and the test-only extension that registers a language model tool.
      extensionDevelopmentPath: [repoRoot, toolFixtureExtension],
      extensionTestsPath: integrationEntry,
      extensionTestsEnv: {
        MODEL_GATEWAY_TEST_RESULTS: resultsFile,
        MODEL_GATEWAY_EMULATOR_URL: gateway.url,
        MODEL_GATEWAY_API_KEY: process.env.MODEL_GATEWAY_API_KEY,
        MODEL_GATEWAY_TEST_GREP: process.env.MODEL_GATEWAY_TEST_GREP,
      },
      launchArgs: [
        workspace.folder,
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        join(profile, 'extensions'),
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    }).catch((error: unknown) => {
      console.error(`[electron] ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    });
    if (existsSync(resultsFile)) printSummary(JSON.parse(readFileSync(resultsFile, 'utf8')) as TestResults);
    return code;
  } finally {
    await gateway.close();
    workspace.dispose();
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`[electron] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}
