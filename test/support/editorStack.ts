// The one way both runners (runExtensionTests, runE2E) start the editor stack: the gateway (the in-process
// emulator, or an external URL), a fresh copy of the fixture workspace, code-server pointed at that gateway,
// and Chromium. Each part is registered with the runner's cleanups, so a failure halfway stops what started.
import { join } from 'node:path';
import { launchBrowser, type Browser } from '../harness/browser';
import { startCodeServer, type CodeServer } from '../harness/codeServer';
import { ensureEditor } from '../harness/install';
import { resultsDir } from '../harness/paths';
import type { Cleanups } from '../harness/proc';
import { makeWorkspace, startGateway, type Gateway, type Workspace } from '../harness/workspace';

/** Options of {@link startEditorStack}. */
export interface EditorStackOptions {
  /** Use this gateway instead of starting the emulator in-process. */
  emulatorUrl?: string;
  /** Environment of code-server (and so of the extension host), given the gateway's URL. */
  env?: (gatewayUrl: string) => Record<string, string>;
  /** VSIX files to install before the editor starts. */
  vsix?: string[];
  /** Name of code-server's log in test-results/logs (without `.log`). */
  logName: string;
  /** VS Code's display language (the test language pack must be among `vsix`). */
  locale?: string;
}

/** The started parts; stopped by the cleanups passed to {@link startEditorStack}. */
export interface EditorStack {
  gateway: Gateway;
  workspace: Workspace;
  server: CodeServer;
  browser: Browser;
}

/** Starts gateway, workspace, code-server and Chromium, in that order, each stopped by `cleanups`. */
export async function startEditorStack(
  cleanups: Cleanups,
  options: EditorStackOptions,
): Promise<EditorStack> {
  await ensureEditor();
  const gateway = await startGateway(options.emulatorUrl);
  cleanups.add(() => gateway.close());
  const workspace = makeWorkspace();
  cleanups.add(() => workspace.dispose());
  const server = await startCodeServer({
    folder: workspace.folder,
    settings: { 'modelGateway.baseUrl': gateway.url },
    ...(options.env ? { env: options.env(gateway.url) } : {}),
    ...(options.vsix?.length ? { vsix: options.vsix } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
    logFile: join(resultsDir('logs'), `${options.logName}.log`),
  });
  cleanups.add(() => server.stop());
  const browser = await launchBrowser();
  cleanups.add(() => browser.close());
  return { gateway, workspace, server, browser };
}
