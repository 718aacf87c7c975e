// §4 File safety through the real `modelGateway.generateImage` command in the extension host: hostile
// `modelGateway.images.folder` settings (.., absolute, symlinks out, device names) and hostile prompts
// (paths, device names, very long, Unicode, bidi), existing files and failures. Nothing is written outside
// the workspace, nothing is overwritten, no partial file remains.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { isPartialName } from '../../../src/images/atomicWrite';
import { imageFileName, isWindowsReservedName } from '../../../src/images/naming';
import { isInside } from '../../../src/images/safePath';
import type { Emulator } from '../../gateway-emulator';
import { setKey, setSetting, useEmulator, withSettings, workspaceRoot } from '../../integration/helpers';
import { isImageRequest } from '../../support/emulatorRequests';

interface GenerateImageResult {
  status: 'saved' | 'cancelled' | 'failed';
  files: vscode.Uri[];
  error?: string;
}

/** Relative path → sha256 of every file below `dir`, symlinks recorded but not followed. */
function snapshot(dir: string, skip?: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (full === skip) continue;
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out.set(relative(dir, full), 'symlink');
      else if (stat.isDirectory()) walk(full);
      else out.set(relative(dir, full), createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

function generate(prompt: string, n = 1): Thenable<GenerateImageResult> {
  return vscode.commands.executeCommand<GenerateImageResult>('modelGateway.generateImage', {
    prompt,
    n,
    size: '1024x1024',
    responseFormat: 'b64_json',
  });
}

describe('File safety: Generate Image with hostile folders and prompts (real extension host)', function () {
  this.timeout(60_000);
  let emulator: Emulator;
  let root: string;
  let outside: string;
  let beyond: Map<string, string>;
  const safeFolder = 'assets/safety';

  before(async () => {
    emulator = await useEmulator();
    await setKey();
    root = realpathSync(workspaceRoot().fsPath);
    outside = mkdtempSync(join(tmpdir(), 'mg-outside-'));
    writeFileSync(join(outside, 'keep.txt'), 'not yours');
    mkdirSync(join(root, 'assets'), { recursive: true });
    symlinkSync(outside, join(root, 'link-out'));
    symlinkSync(outside, join(root, 'assets', 'link-out'));
    symlinkSync(join(root, 'assets'), join(root, 'link-in'));
    beyond = snapshot(dirname(root), root);
  });
  after(async () => {
    for (const link of ['link-out', 'assets/link-out', 'link-in']) rmSync(join(root, link), { force: true });
    rmSync(join(root, safeFolder), { recursive: true, force: true });
    rmSync(join(root, 'assets', 'inside-link'), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    await setSetting('images.folder', undefined);
    await setSetting('images.writeMetadata', undefined);
    await emulator.close();
  });
  beforeEach(async () => {
    emulator.reset();
    await setSetting('images.folder', safeFolder);
  });
  afterEach(() => {
    // Whatever the test did, nothing changed next to the workspace or in the folder the links point at.
    assert.deepEqual(snapshot(dirname(root), root), beyond, 'something was written outside the workspace');
    assert.deepEqual([...snapshot(outside).keys()], ['keep.txt']);
    const partials = [...snapshot(root).keys()].filter((p) => isPartialName(p.split(sep).pop() ?? ''));
    assert.deepEqual(partials, [], 'partial files were left');
  });

  for (const folder of [
    '../escape',
    '../../tmp',
    'assets/../../escape',
    'assets\\..\\..\\escape',
    '/tmp/mg-escape',
    'OUTSIDE_ABSOLUTE',
    'link-out',
    'link-out/deeper',
    'assets/link-out/x',
    'link-in/link-out',
    '~/images',
    'CON',
    'assets/nul',
    'COM1/images',
    'images:stream',
    'trailing.',
  ]) {
    it(`refuses the folder setting ${JSON.stringify(folder)} before anything is sent`, async () => {
      await setSetting('images.folder', folder === 'OUTSIDE_ABSOLUTE' ? outside : folder);
      const before = snapshot(root);
      const result = await generate('should never be written');
      assert.equal(result.status, 'failed');
      // (The model list the extension asks for in the background is not a request for this image.)
      const asked = emulator.requests.filter((r) => r.path !== '/v1/models');
      assert.equal(asked.length, 0, 'the gateway was asked although the folder is refused');
      assert.deepEqual(snapshot(root), before);
    });
  }

  it('accepts a symlink that stays inside the workspace', async () => {
    await setSetting('images.folder', 'link-in/inside-link');
    const result = await generate('inside link');
    assert.equal(result.status, 'saved', result.error);
    assert.ok(isInside(root, realpathSync(result.files[0].fsPath)));
  });

  for (const [label, prompt] of [
    ['path traversal', '../../../../etc/passwd'],
    ['absolute paths', '/etc/shadow C:\\Windows\\System32\\config \\\\server\\share'],
    ['device names', 'CON'],
    ['device name with extension', 'nul.png'],
    ['COM and LPT', 'COM1 LPT9'],
    ['Unicode', '東京の夜景 🦊 İstanbul straße Ærøskøbing'],
    ['only symbols', '🦊🔥 <>:"|?* ...'],
    ['bidi and zero-width', '\u202Egnp.exe\u200B\uFEFF innocent'],
    ['control characters', 'line\nbreak\ttab\rreturn\u0007bell'],
    ['very long', `${'a very long prompt with many words '.repeat(150)}end`],
    ['percent-encoded traversal', '%2e%2e%2f%2e%2e%2fescape'],
    ['shell', '$(touch /tmp/pwned) `id`; rm -rf ~'],
  ]) {
    it(`a hostile prompt (${label}) gives portable names inside the folder`, async () => {
      const result = await generate(prompt, 2);
      assert.equal(result.status, 'saved', result.error);
      assert.equal(result.files.length, 2);
      const folder = realpathSync(join(root, safeFolder));
      for (const file of result.files) {
        const name = file.path.split('/').pop() ?? '';
        assert.equal(realpathSync(dirname(file.fsPath)), folder, `${file.fsPath} is not in ${folder}`);
        assert.match(name, /^[a-z0-9]+(?:-[a-z0-9]+)*\.png$/);
        assert.ok(name.length <= 100, name);
        assert.equal(isWindowsReservedName(name), false, name);
      }
      const sent = emulator.requests.find(isImageRequest)?.body as {
        prompt: string;
      };
      assert.equal(sent.prompt, prompt.trim(), 'the prompt itself is sent unchanged');
    });
  }

  /** Files the next save could be named, for the coming seconds, with content the test can recheck. */
  function occupyNextNames(prompt: string, suffix: string, seconds = 20): Map<string, string> {
    const folder = join(root, safeFolder);
    mkdirSync(folder, { recursive: true });
    const made = new Map<string, string>();
    const start = Date.now();
    for (let s = -1; s < seconds; s++) {
      const name = imageFileName({
        prompt,
        timestamp: new Date(start + s * 1000),
        index: 0,
        count: 1,
        ext: 'png',
      });
      const path = join(folder, `${name}${suffix}`);
      writeFileSync(path, `user file ${name}${suffix}`);
      made.set(path, `user file ${name}${suffix}`);
    }
    return made;
  }

  it('never overwrites an existing image: the new one gets a free name', async () => {
    const existing = occupyNextNames('existing image', '');
    const result = await generate('existing image');
    assert.equal(result.status, 'saved', result.error);
    for (const [path, content] of existing) assert.equal(readFileSync(path, 'utf8'), content);
    assert.ok(!existing.has(result.files[0].fsPath));
    assert.match(result.files[0].path, /-2\.png$/);
  });

  it('never overwrites an existing file where the metadata sidecar would go', async () => {
    await withSettings({ 'images.writeMetadata': true }, async () => {
      const existing = occupyNextNames('sidecar clash', '.json');
      const result = await generate('sidecar clash');
      assert.equal(result.status, 'saved', result.error);
      for (const [path, content] of existing) assert.equal(readFileSync(path, 'utf8'), content, path);
      const sidecar = JSON.parse(readFileSync(`${result.files[0].fsPath}.json`, 'utf8')) as {
        prompt: string;
      };
      assert.equal(sidecar.prompt, 'sidecar clash');
    });
  });

  for (const fault of ['status:500', 'image-url-expired', 'image-url-html', 'image-url-redirect:4']) {
    it(`a failure (${fault}) in a batch of 3 leaves no file at all`, async () => {
      const folder = join(root, safeFolder);
      mkdirSync(folder, { recursive: true });
      const before = snapshot(folder);
      const result = await vscode.commands.executeCommand<GenerateImageResult>('modelGateway.generateImage', {
        prompt: `batch [[fault:${fault}]]`,
        n: 3,
        size: '1024x1024',
        responseFormat: fault.startsWith('image-url') ? 'url' : 'b64_json',
      });
      assert.equal(result.status, 'failed');
      assert.deepEqual(snapshot(folder), before);
    });
  }
});
