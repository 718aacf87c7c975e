import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readImageDimensions } from '../support/pngInfo';
import type { Emulator } from '../gateway-emulator';
import { setKey, setSetting, withSettings, useEmulator, workspaceRoot } from './helpers';
import { useSettingsRestored } from '../support/settings';
import { isImageRequest } from '../support/emulatorRequests';

interface GenerateImageResult {
  status: 'saved' | 'cancelled' | 'failed';
  files: vscode.Uri[];
  revisedPrompts: string[];
  error?: string;
}

async function listFolder(folder: vscode.Uri): Promise<string[]> {
  try {
    return (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name).sort();
  } catch {
    return [];
  }
}

describe('Generate Image into the workspace (real editor)', () => {
  useSettingsRestored(['images.folder', 'images.writeMetadata']);
  let emulator: Emulator;
  const folderSetting = 'assets/generated-it';
  const folder = (): vscode.Uri => vscode.Uri.joinPath(workspaceRoot(), 'assets', 'generated-it');

  before(async () => {
    emulator = await useEmulator();
    await setKey();
    await setSetting('images.folder', folderSetting);
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(async () => {
    emulator.reset();
    await vscode.workspace.fs.delete(folder(), { recursive: true }).then(undefined, () => undefined);
  });

  for (const responseFormat of ['b64_json', 'url'] as const) {
    it(`n=2 at 1536x1024 writes two valid PNGs of that size (${responseFormat})`, async () => {
      const result = await vscode.commands.executeCommand<GenerateImageResult>('modelGateway.generateImage', {
        prompt: 'A lighthouse at dusk',
        n: 2,
        size: '1536x1024',
        responseFormat,
      });
      assert.equal(result.status, 'saved', result.error);
      assert.equal(result.files.length, 2);
      for (const file of result.files) {
        assert.match(file.path, /\/assets\/generated-it\/a-lighthouse-at-dusk-[0-9-]+\.png$/);
        const bytes = await vscode.workspace.fs.readFile(file);
        assert.deepEqual(readImageDimensions(bytes), { format: 'png', width: 1536, height: 1024 });
      }
      assert.deepEqual(await listFolder(folder()), result.files.map((f) => f.path.split('/').pop()!).sort());
      const sent = emulator.requests.find(isImageRequest)!.body as Record<string, unknown>;
      assert.equal(sent.response_format, responseFormat);
      assert.equal(sent.n, 2);
    });
  }

  it('never overwrites: the same prompt twice gives new names', async () => {
    const options = { prompt: 'same prompt', n: 1, size: '1024x1024' };
    const first = await vscode.commands.executeCommand<GenerateImageResult>(
      'modelGateway.generateImage',
      options,
    );
    const second = await vscode.commands.executeCommand<GenerateImageResult>(
      'modelGateway.generateImage',
      options,
    );
    const names = [...first.files, ...second.files].map((f) => f.path);
    assert.equal(new Set(names).size, 2);
    assert.equal((await listFolder(folder())).length, 2);
  });

  it('writes a metadata sidecar when asked', async () => {
    await withSettings({ 'images.writeMetadata': true }, async () => {
      const result = await vscode.commands.executeCommand<GenerateImageResult>('modelGateway.generateImage', {
        prompt: 'sidecar please',
      });
      const sidecar = JSON.parse(
        new TextDecoder().decode(
          await vscode.workspace.fs.readFile(vscode.Uri.parse(`${result.files[0]}.json`)),
        ),
      );
      assert.equal(sidecar.prompt, 'sidecar please');
      assert.equal(sidecar.model, 'beta-image-2');
    });
  });

  it('an error leaves no file, with a message', async () => {
    const result = await vscode.commands.executeCommand<GenerateImageResult>('modelGateway.generateImage', {
      prompt: 'broken [[fault:status:500]]',
    });
    assert.equal(result.status, 'failed');
    assert.deepEqual(await listFolder(folder()), []);
  });

  for (const bad of ['../outside', '/etc/model-gateway', 'assets/../../escape']) {
    it(`refuses an images folder that leaves the workspace: ${bad}`, async () => {
      await withSettings({ 'images.folder': bad }, async () => {
        const result = await vscode.commands.executeCommand<GenerateImageResult>(
          'modelGateway.generateImage',
          {
            prompt: 'should not be written',
          },
        );
        assert.equal(result.status, 'failed');
        assert.equal(emulator.requests.length, 0, 'nothing is sent when the folder is refused');
      });
    });
  }
});
