// A second code-server with its own user data (no stored key, fresh globalState), for tests about first runs
// and Restricted Mode that the shared fixture's editor has long passed. It loads the extension the same way
// the fixture does (from the repository, or from the fixture's installed VSIX) and talks to its gateway.
import type { Page } from 'playwright-core';
import { remoteUri, startCodeServer, type CodeServer, type CodeServerOptions } from '../harness/codeServer';
import { e2e, openWithExtension } from '../harness/e2eFixture';
import { repoRoot } from '../harness/paths';
import { makeWorkspace, type Workspace } from '../harness/workspace';

/** A started editor, its page and workspace; `close()` stops all of them. */
export interface OwnEditor {
  server: CodeServer;
  page: Page;
  workspace: Workspace;
  payload: [string, string][] | undefined;
  /** Loads (or reloads) the workbench in the page and waits until the extension's commands are listed. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the editor without an API key anywhere; `options` adds to the fixture-like defaults. */
export async function startOwnEditor(options: Partial<CodeServerOptions> = {}): Promise<OwnEditor> {
  const fixture = e2e();
  const workspace = makeWorkspace();
  const server = await startCodeServer({
    folder: workspace.folder,
    // In VSIX mode the fixture's extensions folder holds the installed package; reading it is enough.
    ...(fixture.mode === 'vsix' ? { extensionsDir: fixture.server.extensionsDir } : {}),
    ...options,
    settings: { 'modelGateway.baseUrl': fixture.gateway.url, ...options.settings },
    env: { MODEL_GATEWAY_API_KEY: '', MODEL_GATEWAY_EMULATOR_URL: fixture.gateway.url, ...options.env },
  }).catch((error: unknown) => {
    workspace.dispose();
    throw error;
  });
  const payload: [string, string][] | undefined =
    fixture.mode === 'vsix' ? undefined : [['extensionDevelopmentPath', remoteUri(server.url, repoRoot)]];
  const page = await fixture.browser.context.newPage();
  return {
    server,
    page,
    workspace,
    payload,
    open: () => openWithExtension(page, server, workspace.folder, payload),
    close: async () => {
      await page.close().catch(() => undefined);
      await server.stop();
      workspace.dispose();
    },
  };
}

/** Waits until the extension has activated: its status bar item (the default model) is shown. */
export async function waitForActivation(page: Page, timeoutMs = 60_000): Promise<void> {
  await page
    .locator('.statusbar-item')
    .filter({ hasText: /Sonnet|Opus|Haiku/ })
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs });
}
