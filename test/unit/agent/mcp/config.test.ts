import * as assert from 'node:assert/strict';
import {
  inputIds,
  mergeMcpConfig,
  parseMcpJson,
  readMcpSetting,
  resolveVariables,
  type McpServerConfig,
} from '../../../../src/agent/mcp/config';
import { parseJsonc } from '../../../../src/agent/mcp/jsonc';

const names = (servers: readonly McpServerConfig[]) => servers.map((s) => `${s.name}:${s.source}`);

describe('agent/mcp/config: VS Code mcp.json and the setting', () => {
  it('reads JSONC: comments and trailing commas, but not inside strings', () => {
    const value = parseJsonc(`{
      // a comment
      "url": "http://x/y//z", /* block */
      "list": [1, 2,],
      "text": "a /* not */ b, ]",
    }`);
    assert.deepEqual(value, { url: 'http://x/y//z', list: [1, 2], text: 'a /* not */ b, ]' });
  });

  it('a file that is not JSON even with comments allowed is a SyntaxError that says where', () => {
    for (const bad of ['{ "a": }', '{ "a": 1', '', '{ "a": 1 } x'])
      assert.throws(
        () => parseJsonc(bad),
        (e: unknown) => e instanceof SyntaxError && /offset \d+/.test(e.message),
        bad,
      );
  });

  it('reads stdio and http servers in the servers format, the type implied or given', () => {
    const part = parseMcpJson(
      `{
        "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],
        "servers": {
          "files": { "type": "stdio", "command": "node", "args": ["s.js", 3], "env": { "A": "1", "N": 2 }, "cwd": "/w" },
          "plain": { "command": "npx", "args": ["srv"] },
          "api": { "type": "http", "url": "https://h/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
          "implied": { "url": "http://127.0.0.1:9/mcp" }
        }
      }`,
      'workspace',
      '/ws',
    );
    assert.deepEqual(part.problems, []);
    assert.deepEqual(part.servers[0], {
      name: 'files',
      source: 'workspace',
      folder: '/ws',
      type: 'stdio',
      command: 'node',
      args: ['s.js'],
      env: { A: '1', N: '2' },
      cwd: '/w',
    });
    assert.equal(part.servers[1].type, 'stdio');
    assert.deepEqual(part.servers[2], {
      name: 'api',
      source: 'workspace',
      folder: '/ws',
      type: 'http',
      url: 'https://h/mcp',
      headers: { Authorization: 'Bearer ${input:token}' },
    });
    assert.equal(part.servers[3].type, 'http');
    assert.deepEqual(part.inputs, [{ id: 'token', description: 'API token', password: true }]);
  });

  it('reports broken files and entries, and keeps the good entries', () => {
    assert.match(parseMcpJson('{ "servers": ', 'user').problems[0], /user mcp\.json is not valid JSON/);
    const part = parseMcpJson(
      '{ "servers": { "a": { "args": [] }, "b": { "type": "ws", "url": "x" }, "c": 3, "ok": { "command": "x" } } }',
      'user',
    );
    assert.deepEqual(names(part.servers), ['ok:user']);
    assert.equal(part.problems.length, 3);
    assert.match(part.problems[0], /"a" \(user\): "command" is missing/);
    assert.match(part.problems[1], /type "ws" is not supported/);
    assert.deepEqual(parseMcpJson('', 'user').servers, []);
  });

  it('merges user, workspace and setting: later sources replace a name, false disables one', () => {
    const user = parseMcpJson(
      '{ "servers": { "a": { "command": "user-a" }, "b": { "command": "user-b" } } }',
      'user',
    );
    const workspace = parseMcpJson(
      '{ "servers": { "a": { "command": "ws-a" }, "c": { "command": "ws-c" } } }',
      'workspace',
    );
    const setting = readMcpSetting({
      b: false,
      d: { url: 'http://127.0.0.1:1/mcp' },
      c: { command: 'set-c' },
    });
    const merged = mergeMcpConfig([user, workspace, setting]);
    assert.deepEqual(names(merged.servers), ['a:workspace', 'c:setting', 'd:setting']);
    assert.equal((merged.servers[0] as { command: string }).command, 'ws-a');
    assert.deepEqual(merged.disabled, ['b']);
  });

  it('reports a setting that is not an object of servers', () => {
    assert.match(readMcpSetting(['x']).problems[0], /must be an object of servers by name/);
    assert.deepEqual(readMcpSetting(undefined).servers, []);
    assert.match(readMcpSetting({ x: true }).problems[0], /"x" \(setting\): an entry must be an object/);
  });

  it('expands ${workspaceFolder}, ${env:…} and ${input:…}, and lists the inputs a server needs', () => {
    const [server] = parseMcpJson(
      `{ "servers": { "s": { "command": "\${workspaceFolder}/bin/s", "args": ["--key=\${input:key}", "\${env:HOME_X}"],
        "env": { "TOKEN": "\${input:token}", "KEEP": "\${input:other} \${unknown}" } } } }`,
      'workspace',
      '/ws',
    ).servers;
    assert.deepEqual(inputIds(server).sort(), ['key', 'other', 'token']);
    const resolved = resolveVariables(server, {
      workspaceFolder: '/first',
      env: { HOME_X: '/home/x' },
      inputs: { key: 'k1', token: 't1' },
    });
    assert.equal(resolved.type, 'stdio');
    if (resolved.type !== 'stdio') return;
    assert.equal(resolved.command, '/ws/bin/s');
    assert.deepEqual(resolved.args, ['--key=k1', '/home/x']);
    assert.deepEqual(resolved.env, { TOKEN: 't1', KEEP: '${input:other} ${unknown}' });
    assert.equal(resolved.cwd, '/ws', 'a workspace server runs in its folder');
    const http = resolveVariables(
      readMcpSetting({ h: { url: 'http://h/${input:p}', headers: { X: '${input:p}' } } }).servers[0],
      {
        workspaceFolder: '/first',
        env: {},
        inputs: { p: 'secret' },
      },
    );
    assert.deepEqual(http.type === 'http' && [http.url, http.headers], ['http://h/secret', { X: 'secret' }]);
  });
});
