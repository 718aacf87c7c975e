// The gateway client bundled as the extension ships it (esbuild.mjs): undici's HTTP parsers, the SIMD one and
// the fallback for CPUs without WebAssembly SIMD, are read from llhttp_simd.wasm and llhttp.wasm next to it.
// undici's UNDICI_NO_WASM_SIMD=1 forces the fallback, so both paths run for real in a child process.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Emulator, expectedAnswer, startEmulator } from '../../gateway-emulator';
import { KEY, chat } from './helpers';

const BUNDLE_DIR = resolve(__dirname, '../../../bundled');
const REQUEST = chat('Say something about parsers');

/** Streams REQUEST with the bundled client in a child process and returns what it printed. */
async function streamWithBundle(dir: string, url: string, noSimd: boolean): Promise<string> {
  const script = `
    const { createGatewayClient } = require(${JSON.stringify(join(dir, 'gateway.js'))});
    (async () => {
      const client = createGatewayClient({ baseUrl: process.env.GATEWAY_URL, apiKey: ${JSON.stringify(KEY)} });
      let text = '';
      for await (const event of client.streamChatCompletion(${JSON.stringify(REQUEST)})) {
        if (event.type === 'text') text += event.text;
      }
      process.stdout.write(text);
      await client.close();
    })().catch((error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); });
  `;
  const env = { ...process.env, GATEWAY_URL: url, UNDICI_NO_WASM_SIMD: noSimd ? '1' : '0' };
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { env, timeout: 15_000 });
  return stdout;
}

describe('gateway client bundle: undici HTTP parser', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  let bare: string;

  before(async () => {
    emulator = await startEmulator({ keys: [KEY] });
    bare = mkdtempSync(join(tmpdir(), 'mg-bundle-'));
    copyFileSync(join(BUNDLE_DIR, 'gateway.js'), join(bare, 'gateway.js'));
  });
  after(async () => {
    await emulator.close();
    rmSync(bare, { recursive: true, force: true });
  });

  it('ships both parsers as files next to the bundle, not inside it', () => {
    assert.ok(existsSync(join(BUNDLE_DIR, 'llhttp_simd.wasm')));
    assert.ok(existsSync(join(BUNDLE_DIR, 'llhttp.wasm')));
    // Their base64 JavaScript form is not in the bundle (the wasm magic number, base64-encoded, opens it).
    assert.ok(!readFileSync(join(BUNDLE_DIR, 'gateway.js'), 'utf8').includes('AGFzbQEAAAAB'));
  });

  it('streams with the SIMD parser read from llhttp_simd.wasm', async () => {
    assert.equal(await streamWithBundle(BUNDLE_DIR, emulator.url, false), expectedAnswer(REQUEST));
  });

  it('streams with the fallback parser read from llhttp.wasm when SIMD is unavailable', async () => {
    assert.equal(await streamWithBundle(BUNDLE_DIR, emulator.url, true), expectedAnswer(REQUEST));
  });

  it('the parsers really come from the files: without them neither path loads', async () => {
    await assert.rejects(streamWithBundle(bare, emulator.url, false), /llhttp_simd\.wasm|WebAssembly/);
    await assert.rejects(streamWithBundle(bare, emulator.url, true), /llhttp\.wasm|WebAssembly/);
  });
});
