import * as assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readImageDimensions } from '../support/pngInfo';
import { decodePng } from '../support/pngPixels';
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

/** Every file below `dir` (on the extension host's disk) with its size, by path relative to `dir`. */
function treeSizes(dir: string, prefix = ''): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const [k, v] of treeSizes(path, `${prefix}${entry.name}/`)) found.set(k, v);
    else found.set(`${prefix}${entry.name}`, statSync(path).size);
  }
  return found;
}

/** The PNG's last 12 bytes: the IEND chunk, which a file cut short does not end with. */
const IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

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

  it('each file appears under its name whole (written beside it first), and nothing else is left or written', async () => {
    // Noise does not compress: two images of about 4.7 MB each, written in many pieces. A poll of the folder
    // while the command runs sees every file that has its final name; each must already be whole.
    const root = workspaceRoot().fsPath;
    const before = treeSizes(root);
    const seen: Array<{ name: string; size: number }> = [];
    const poll = setInterval(() => {
      let names: string[];
      try {
        names = readdirSync(folder().fsPath);
      } catch {
        return; // not created yet
      }
      for (const name of names) {
        try {
          const size = statSync(join(folder().fsPath, name)).size;
          if (!name.startsWith('.')) seen.push({ name, size });
        } catch {
          // renamed or removed between the listing and the stat
        }
      }
    }, 1);
    let result: GenerateImageResult;
    try {
      result = await vscode.commands.executeCommand<GenerateImageResult>('modelGateway.generateImage', {
        prompt: 'Static on a screen [[fault:image-noise]]',
        n: 2,
        size: '1536x1024',
        responseFormat: 'b64_json',
      });
    } finally {
      clearInterval(poll);
    }
    assert.equal(result.status, 'saved', result.error);
    const sizes = new Map<string, number>();
    for (const file of result.files) {
      const bytes = Buffer.from(await vscode.workspace.fs.readFile(file));
      assert.deepEqual(bytes.subarray(-IEND.length), IEND, `${file.path} ends with IEND`);
      const pixels = decodePng(bytes); // inflates every IDAT: a file cut short fails here
      assert.deepEqual([pixels.width, pixels.height], [1536, 1024]);
      sizes.set(file.path.split('/').pop()!, bytes.length);
    }
    for (const { name, size } of seen)
      assert.equal(size, sizes.get(name), `${name} was seen at ${size} bytes`);
    // Nothing else in the whole workspace changed: no temporary file left, nothing outside the folder.
    const after = treeSizes(root);
    const added = [...after.keys()].filter((path) => !before.has(path)).sort();
    assert.deepEqual(added, [...sizes.keys()].map((name) => `${folderSetting}/${name}`).sort());
    for (const [path, size] of before) assert.equal(after.get(path), size, `${path} is unchanged`);
  });

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
