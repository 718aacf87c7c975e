// The `#` picker's file index in the real extension host: it lists the workspace as findFiles does (tools' folders
// left out), ranks in its worker thread exactly as the same list ranks in this thread, follows the file watcher,
// keeps what the watcher reported while a listing was under way, and stops when disposed mid-listing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { RankedPaths } from '../../src/chat/context/rankedPaths';
import { FileIndex } from '../../src/host/context/fileIndex';
import { waitFor } from '../support/poll';
import { workspaceRoot } from './helpers';

const FIXTURE = 'file-index-fixture';
const encoder = new TextEncoder();
const NOUNS = ['invoice', 'session', 'token', 'cart', 'profile', 'report', 'schema', 'event'];
const ROLES = ['Service', 'Store', 'View', 'Parser'];

function uriOf(path: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), path);
}

async function write(path: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uriOf(path), encoder.encode(`// ${path}\n`));
}

/** The relative paths of `search`'s answer. */
async function found(index: FileIndex, query: string, limit = 50): Promise<string[]> {
  return (await index.search(query, limit)).map((f) => f.path);
}

/** A watcher of the test's own: VS Code hands a file event to every watcher in one go, the index's included. */
function eventsSeen(): { seen: Set<string>; dispose(): void } {
  const seen = new Set<string>();
  const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
  const root = workspaceRoot().path + '/';
  const record = (kind: string) => (uri: vscode.Uri) => seen.add(`${kind} ${uri.path.slice(root.length)}`);
  const subscriptions = [
    watcher,
    watcher.onDidCreate(record('create')),
    watcher.onDidDelete(record('delete')),
  ];
  return { seen, dispose: () => subscriptions.forEach((s) => s.dispose()) };
}

describe('File index (real extension host)', function () {
  this.timeout(120_000);
  const made: string[] = [];

  before(async () => {
    for (const noun of NOUNS)
      for (const role of ROLES)
        for (const area of ['src', 'test']) made.push(`${FIXTURE}/${area}/${noun}/${noun}${role}.ts`);
    made.push(`${FIXTURE}/node_modules/left/out.js`, `${FIXTURE}/doomed-file.txt`);
    for (const path of made) await write(path);
  });

  after(async () => {
    await vscode.workspace.fs.delete(uriOf(FIXTURE), { recursive: true, useTrash: false });
  });

  it('lists what findFiles lists, without tools folders, and ranks in its worker as the same list ranks here', async () => {
    const index = new FileIndex();
    try {
      await index.load();
      assert.equal(index.ready, true);
      const listed = await found(index, '', 1_000_000);
      const expected = (await vscode.workspace.findFiles('**/*'))
        .map((uri) => vscode.workspace.asRelativePath(uri, false))
        .filter((path) => !/(^|\/)(node_modules|\.git)\//.test(path));
      assert.deepEqual([...listed].sort(), expected.sort());
      assert.ok(listed.includes(`${FIXTURE}/src/invoice/invoiceService.ts`));
      assert.ok(!listed.some((path) => path.includes('node_modules/')));

      const here = new RankedPaths();
      here.add(listed);
      for (const query of ['invoiceServ', 'sess', 'test/token', 'cart view', 'xyzzy']) {
        assert.deepEqual(await found(index, query, 10), here.search(query, 10), query);
      }
      const [first] = await index.search('invoiceService', 1);
      assert.match(first.path, /^file-index-fixture\/(src|test)\/invoice\/invoiceService\.ts$/);
      assert.equal(first.uri.toString(), uriOf(first.path).toString());
      assert.equal(index.uriOf(first.path)?.toString(), first.uri.toString());
    } finally {
      index.dispose();
    }
  });

  it('follows the watcher: created files (alone or in a new folder) are found, a deleted folder leaves with them', async () => {
    const index = new FileIndex();
    const listed = async (path: string, query: string): Promise<boolean> =>
      (await found(index, query)).includes(path);
    try {
      await index.load();
      const alone = `${FIXTURE}/src/cart/cartMapper.ts`;
      const inFolder = `${FIXTURE}/late/deeper/lateArrivalStore.ts`;
      await write(alone);
      await write(inFolder);
      await waitFor(
        async () => ((await listed(alone, 'cartMapper')) ? true : undefined),
        'the created file',
        60_000,
      );
      await waitFor(
        async () => ((await listed(inFolder, 'lateArrival')) ? true : undefined),
        "the new folder's file",
        60_000,
      );
      const all = await found(index, '', 1_000_000);
      assert.ok(
        !all.includes(`${FIXTURE}/late`) && !all.includes(`${FIXTURE}/late/deeper`),
        'folders are no files',
      );
      await vscode.workspace.fs.delete(uriOf(`${FIXTURE}/late`), { recursive: true, useTrash: false });
      await waitFor(
        async () => ((await listed(inFolder, 'lateArrival')) ? undefined : true),
        'its removal',
        60_000,
      );
      assert.ok(await listed(alone, 'cartMapper'), 'the rest stays');
    } finally {
      index.dispose();
      await vscode.workspace.fs.delete(uriOf(`${FIXTURE}/src/cart/cartMapper.ts`), { useTrash: false });
    }
  });

  it('keeps what the watcher reported while the listing ran: its older list neither undoes a delete nor loses a create', async () => {
    // findFiles' real answer is held back until the watcher has reported a delete and a create that happen after
    // the search ran, so the listing that follows is older than both events, every time.
    const workspace = vscode.workspace as { findFiles: typeof vscode.workspace.findFiles };
    const realFindFiles = workspace.findFiles;
    let answered: vscode.Uri[] | undefined;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    workspace.findFiles = async (...args) => {
      answered = await realFindFiles(...args);
      await held;
      return answered;
    };
    const events = eventsSeen();
    const index = new FileIndex();
    try {
      const loading = index.load();
      const listing = await waitFor(() => answered, "findFiles' answer");
      assert.ok(listing.some((uri) => uri.path.endsWith(`${FIXTURE}/doomed-file.txt`)));
      await vscode.workspace.fs.delete(uriOf(`${FIXTURE}/doomed-file.txt`), { useTrash: false });
      await write(`${FIXTURE}/newborn-file.txt`);
      await waitFor(
        () =>
          events.seen.has(`delete ${FIXTURE}/doomed-file.txt`) &&
          events.seen.has(`create ${FIXTURE}/newborn-file.txt`)
            ? true
            : undefined,
        'both file events',
        60_000,
      );
      release();
      await loading;
      assert.deepEqual(await found(index, 'doomed-file'), []);
      assert.deepEqual(await found(index, 'newborn-file'), [`${FIXTURE}/newborn-file.txt`]);
      assert.ok((await found(index, 'invoiceService')).length > 0, 'the listing itself arrived');
    } finally {
      release();
      workspace.findFiles = realFindFiles;
      events.dispose();
      index.dispose();
      await vscode.workspace.fs.delete(uriOf(`${FIXTURE}/newborn-file.txt`), { useTrash: false }).then(
        () => undefined,
        () => undefined,
      );
    }
  });

  it('stops when disposed mid-listing: the listing settles and searches answer nothing', async () => {
    const index = new FileIndex();
    const loading = index.load();
    index.dispose();
    await loading;
    assert.equal(index.ready, false);
    assert.deepEqual(await found(index, 'invoice'), []);
    await index.load();
    assert.equal(index.ready, false, 'a disposed index does not list again');
  });
});
