import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planApt } from '../../harness/debianPackages';
import { playground, startEmulatorOn } from '../../harness/start';

/** Listens on a free 127.0.0.1 port and returns the server holding it. */
async function occupy(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('npm start: the emulator port', () => {
  it('uses the port it is given when that port is free', async () => {
    const holder = await occupy();
    const port = (holder.address() as { port: number }).port;
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    const said: string[] = [];
    const gateway = await startEmulatorOn(port, (m) => said.push(m));
    try {
      assert.equal(gateway.url, `http://127.0.0.1:${port}`);
      assert.deepEqual(said, []);
    } finally {
      await gateway.close();
    }
  });

  it('falls back to a free port, and says which, when the port is taken', async () => {
    const holder = await occupy();
    const taken = (holder.address() as { port: number }).port;
    const said: string[] = [];
    const gateway = await startEmulatorOn(taken, (m) => said.push(m));
    try {
      const port = Number(new URL(gateway.url).port);
      assert.notEqual(port, taken);
      assert.ok(port > 0);
      assert.deepEqual(said, [`port ${taken} is in use, so the emulator took the free port ${port} instead`]);
    } finally {
      await gateway.close();
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});

describe('npm start: Debian packages', () => {
  const base = { root: false, hasApt: true, hasSudo: true, interactive: true, skip: false };

  it('does nothing when every package is present', () => {
    assert.deepEqual(planApt([], { ...base, root: true }), { action: 'none' });
  });

  it('installs directly as root, and asks before using sudo otherwise', () => {
    assert.deepEqual(planApt(['fonts-wqy-zenhei'], { ...base, root: true }), {
      action: 'install',
      sudo: false,
      ask: false,
    });
    assert.deepEqual(planApt(['fonts-wqy-zenhei'], base), { action: 'install', sudo: true, ask: true });
  });

  it('only advises the apt line when it cannot ask, has no sudo or apt, or is told to skip', () => {
    for (const env of [
      { ...base, interactive: false },
      { ...base, hasSudo: false },
      { ...base, hasApt: false },
      { ...base, root: true, skip: true },
    ])
      assert.equal(planApt(['libkrb5-dev'], env).action, 'advise');
  });
});

describe('npm start: the workspace it opens', () => {
  it('copies the demo project once, keeps the user’s edits, and MODEL_GATEWAY_WORKSPACE wins', () => {
    const cache = mkdtempSync(join(tmpdir(), 'mg-start-'));
    try {
      const folder = playground({}, cache);
      assert.equal(folder, join(cache, 'demo'));
      for (const file of [
        'package.json',
        'README.md',
        'AGENTS.md',
        'src/money.ts',
        'src/cart.ts',
        'test/cart.test.ts',
      ])
        assert.ok(existsSync(join(folder, file)), file);
      assert.equal(existsSync(join(folder, 'src', 'sample.ts')), false, 'not the tests’ fixture');
      assert.equal(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).name, 'cart-totals');
      writeFileSync(join(folder, 'src', 'money.ts'), '// edited\n');
      assert.equal(playground({}, cache), folder);
      assert.equal(readFileSync(join(folder, 'src', 'money.ts'), 'utf8'), '// edited\n');
      assert.equal(playground({ MODEL_GATEWAY_WORKSPACE: cache }, cache), cache);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
