// The test-only extension that declares and registers a language model tool (test/fixtures/tool-extension),
// packaged for code-server. The workbench reads its development payload into a Map, so a second
// `extensionDevelopmentPath` would replace Model Gateway's: the fixture is installed as a VSIX instead, next to
// Model Gateway under development. (Desktop VS Code takes several development paths: test/electron does that.)
import { join } from 'node:path';
import { createVSIX } from '@vscode/vsce';
import { toolFixtureExtension } from './paths';

/** Packages the built fixture (out/test/fixtures/tool-extension) into `dir`; resolves with the VSIX's path. */
export async function packageToolFixture(dir: string): Promise<string> {
  const packagePath = join(dir, 'tool-fixture.vsix');
  await createVSIX({
    cwd: toolFixtureExtension,
    packagePath,
    dependencies: false,
    allowMissingRepository: true,
    skipLicense: true,
  });
  return packagePath;
}
