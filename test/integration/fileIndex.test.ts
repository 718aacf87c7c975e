// The `#` picker's file index in the real extension host: it lists the workspace as findFiles does (tools' folders
// left out), with VS Code's ripgrep streamed or, without it, with findFiles; ranks in its worker thread exactly as
// the same list ranks in this thread, follows the file watcher (files.exclude applied to what it adds), keeps what
// the watcher reported while a listing was under way, and stops (ripgrep included) when disposed mid-listing.
import * as assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { RankedPaths } from '../../src/chat/context/rankedPaths';
import { FileIndex } from '../../src/host/context/fileIndex';
import { LazyFileIndex } from '../../src/host/context/lazyFileIndex';
import { listWorkspace } from '../../src/host/context/workspaceListing';
import { findRipgrep, ripgrepCandidates } from '../../src/host/search/ripgrep';
import { settle, until, waitFor } from '../support/poll';
import { workspaceRoot } from './helpers';
import { alive } from '../support/processAlive';

const FIXTURE = 'file-index-fixture';
/** Written after the fixture, next to it (the workspace's root is watched from the start). */
const READY = 'file-index-fixture.ready';
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
async function found(index: Pick<FileIndex, 'search'>, query: string, limit = 50): Promise<string[]> {
  return (await index.search(query, limit)).map((f) => f.path);
}

/** A log that keeps its lines, and the ripgrep starts seen, for a FileIndex that lists with `ripgrepPath`. */
function spiedIndex(ripgrepPath?: string): { index: FileIndex; logged: string[]; spawned: string[] } {
  const logged: string[] = [];
  const spawned: string[] = [];
  const log = {
    info: (message: string) => void logged.push(`info ${message}`),
    warn: (message: string) => void logged.push(`warn ${message}`),
  };
  const onSpawn = (command: string) => void spawned.push(command);
  const index = new FileIndex(log, { onSpawn, ...(ripgrepPath !== undefined ? { ripgrepPath } : {}) });
  return { index, logged, spawned };
}

/** A shell script in ripgrep's place (in a temp folder of its own); `body` may use $REAL, VS Code's ripgrep. */
function scriptRipgrep(dir: string, body: string): string {
  const real = findRipgrep({});
  assert.ok(real, "VS Code's ripgrep is under the app root");
  const path = join(dir, 'rg');
  writeFileSync(path, `#!/bin/sh\nREAL='${real}'\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
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
  let filesExclude: unknown;
  let scripts: string;

  before(async () => {
    for (const noun of NOUNS)
      for (const role of ROLES)
        for (const area of ['src', 'test']) made.push(`${FIXTURE}/${area}/${noun}/${noun}${role}.ts`);
    made.push(
      `${FIXTURE}/node_modules/left/out.js`,
      `${FIXTURE}/doomed-file.txt`,
      `${FIXTURE}/doomed-by-ripgrep.txt`,
      // findFiles applies files.exclude but no ignore file, and lists hidden files.
      `${FIXTURE}/scratch/draft-notes.tmp`,
      `${FIXTURE}/ignored-by-git.log`,
      `${FIXTURE}/.config/hiddenSettings.ts`,
    );
    const events = eventsSeen();
    for (const path of made) await write(path);
    // ripgrep reads a .gitignore only in a git repository, but an .ignore file anywhere: both name the file.
    for (const name of ['.gitignore', '.ignore'])
      await vscode.workspace.fs.writeFile(uriOf(`${FIXTURE}/${name}`), encoder.encode('*.log\nscratch/\n'));
    // findFiles follows links (search.followSymlinks is on by default): a linked folder's files are listed twice.
    symlinkSync('src/invoice', uriOf(`${FIXTURE}/linked-invoice`).fsPath, 'dir');
    const files = vscode.workspace.getConfiguration('files');
    filesExclude = files.inspect('exclude')?.globalValue;
    await files.update(
      'exclude',
      { ...(filesExclude as object | undefined), '**/*.tmp': true },
      vscode.ConfigurationTarget.Global,
    );
    scripts = mkdtempSync(join(tmpdir(), 'mg-file-index-rg-'));
    // The fixture's create events reach an index's watcher a while after the writes: an index listing meanwhile
    // takes them for news (it places those files once each is looked at, and files.exclude'd ones too). Which of
    // them are reported varies (under load a new folder comes alone, without the files written into it), but they
    // come in order: the tests start once a file written last, in a folder watched from the start, was reported.
    await write(READY);
    try {
      await until(
        () => events.seen.has(`create ${READY}`),
        60_000,
        'the create event of the last file written',
      );
    } finally {
      events.dispose();
    }
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration('files')
      .update('exclude', filesExclude, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(uriOf(FIXTURE), { recursive: true, useTrash: false });
    await vscode.workspace.fs.delete(uriOf(READY), { useTrash: false });
    rmSync(scripts, { recursive: true, force: true });
  });

  /** What findFiles lists now, without the tools' folders: what every index must list. */
  async function findFilesListing(): Promise<string[]> {
    return (await vscode.workspace.findFiles('**/*'))
      .map((uri) => vscode.workspace.asRelativePath(uri, false))
      .filter((path) => !/(^|\/)(node_modules|\.git)\//.test(path))
      .sort();
  }

  it("lists with VS Code's ripgrep what findFiles lists, and ranks in its worker as the same list ranks here", async () => {
    const { index, logged, spawned } = spiedIndex();
    try {
      await index.load();
      assert.equal(index.ready, true);
      assert.equal(spawned.length, 1, 'one ripgrep run for the one folder');
      assert.ok(ripgrepCandidates(vscode.env.appRoot).includes(spawned[0]), spawned[0]);
      assert.ok(
        logged.some((line) => /^info File index: listing .* with ripgrep/.test(line)),
        logged.join('\n'),
      );
      const listed = await found(index, '', 1_000_000);
      assert.deepEqual([...listed].sort(), await findFilesListing());
      assert.ok(listed.includes(`${FIXTURE}/src/invoice/invoiceService.ts`));
      assert.ok(!listed.some((path) => path.includes('node_modules/')));
      assert.ok(!listed.includes(`${FIXTURE}/scratch/draft-notes.tmp`), 'files.exclude applies');
      assert.ok(listed.includes(`${FIXTURE}/ignored-by-git.log`), 'ignore files do not');
      assert.ok(listed.includes(`${FIXTURE}/.config/hiddenSettings.ts`), 'hidden files are listed');
      assert.ok(listed.includes(`${FIXTURE}/linked-invoice/invoiceView.ts`), 'links are followed');

      const here = new RankedPaths();
      here.add(listed);
      for (const query of ['invoiceServ', 'sess', 'test/token', 'cart view', 'xyzzy']) {
        assert.deepEqual(await found(index, query, 10), here.search(query, 10), query);
      }
      const [first] = await index.search('invoiceService', 1);
      // The linked folder's copy ranks as high as the others.
      assert.match(
        first.path,
        /^file-index-fixture\/((src|test)\/invoice|linked-invoice)\/invoiceService\.ts$/,
      );
      assert.equal(first.uri.toString(), uriOf(first.path).toString());
      assert.equal(index.uriOf(first.path)?.toString(), first.uri.toString());
      const hidden = `${FIXTURE}/.config/hiddenSettings.ts`;
      assert.equal(index.uriOf(hidden)?.toString(), uriOf(hidden).toString());
    } finally {
      index.dispose();
    }
  });

  it('lists the same with findFiles when there is no ripgrep, and says so in the log', async () => {
    const { index, logged, spawned } = spiedIndex(join(scripts, 'no-such-rg'));
    try {
      await index.load();
      assert.deepEqual(spawned, []);
      assert.deepEqual([...(await found(index, '', 1_000_000))].sort(), await findFilesListing());
      assert.deepEqual(
        logged.filter((line) => line.includes('File index')),
        [
          `info File index: listing ${vscode.workspace.workspaceFolders?.[0]?.name} with findFiles (no ripgrep found)`,
        ],
      );
    } finally {
      index.dispose();
    }
  });

  it('lists the same with findFiles when ripgrep fails before its first file', async () => {
    const failing = scriptRipgrep(scripts, "echo 'rg: something broke' >&2\nexit 2");
    const { index, logged, spawned } = spiedIndex(failing);
    try {
      await index.load();
      assert.deepEqual(spawned, [failing]);
      assert.deepEqual([...(await found(index, '', 1_000_000))].sort(), await findFilesListing());
      assert.ok(
        logged.some((line) =>
          /^warn File index: ripgrep could not list .*rg: something broke.*using findFiles/.test(line),
        ),
        logged.join('\n'),
      );
    } finally {
      index.dispose();
    }
  });

  it('lists again on a search once its listing is old: what the watcher cannot report (through a link) is caught up', async () => {
    // The watcher reports a file where it was written (when it is watching already: a new watcher can miss the
    // first writes); its copy through the linked folder is found only by listing.
    const relisting = new FileIndex(undefined, {}, 0);
    const control = new FileIndex(undefined, {}, Number.POSITIVE_INFINITY);
    const written = `${FIXTURE}/src/invoice/invoiceLedgerAudit.ts`;
    const viaLink = `${FIXTURE}/linked-invoice/invoiceLedgerAudit.ts`;
    try {
      await Promise.all([relisting.load(), control.load()]);
      await write(written);
      await until(
        async () => (await found(relisting, 'invoiceLedgerAudit')).includes(viaLink),
        60_000,
        'the listing made again to find it through the link',
      );
      assert.ok(
        !(await found(control, 'invoiceLedgerAudit')).includes(viaLink),
        'without a new listing it is not there',
      );
      // Deleted: its copy through the link is reported by no watcher either, and leaves with the next listing.
      await vscode.workspace.fs.delete(uriOf(written), { useTrash: false });
      await until(
        async () => !(await found(relisting, 'invoiceLedgerAudit')).includes(viaLink),
        60_000,
        'the listing made again to drop it',
      );
      assert.ok((await found(relisting, 'invoiceService')).length > 0, 'the rest stays');
    } finally {
      relisting.dispose();
      control.dispose();
      if (existsSync(uriOf(written).fsPath)) rmSync(uriOf(written).fsPath);
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

  it('leaves out a created file that files.exclude hides, as its listing does', async () => {
    // As the extension makes it, with its run-time loaded on first use.
    const index = new LazyFileIndex();
    // `**/*.tmp` is excluded for the whole suite (before); the file beside it is not. Both are written at the
    // workspace's root, watched from the start: VS Code's watcher can miss every event of a folder made and filled
    // at once, as the fixture's folders are (the index then catches up only when it lists again).
    const hidden = 'draftNotes.tmp';
    const shown = 'draftNotesShown.ts';
    try {
      await index.load();
      await write(hidden);
      await write(shown);
      await waitFor(
        async () => ((await found(index, 'draftNotesShown')).includes(shown) ? true : undefined),
        'the file beside it',
        60_000,
      );
      const seen = await settle(
        () => found(index, 'draftNotes'),
        (paths) => paths.includes(hidden),
        2_000,
      );
      assert.ok(!seen.includes(hidden), `files.exclude hides it: ${JSON.stringify(seen)}`);
      assert.ok(!(await findFilesListing()).includes(hidden), 'as findFiles leaves it out');
    } finally {
      index.dispose();
      for (const path of [hidden, shown])
        await vscode.workspace.fs.delete(uriOf(path), { useTrash: false }).then(
          () => undefined,
          () => undefined,
        );
    }
  });

  /**
   * Holds a listing's answer back until the watcher has reported a delete and a create that happen after the
   * listing was made, so the listing that follows is older than both events, every time; then checks the index
   * kept both events. `hold` starts the index and resolves, once its listing is made, with the release.
   */
  async function olderListing(
    doomed: string,
    newborn: string,
    hold: () => Promise<{ index: FileIndex; loading: Promise<void>; listing: string; release(): void }>,
  ): Promise<void> {
    const events = eventsSeen();
    let held: Awaited<ReturnType<typeof hold>> | undefined;
    try {
      held = await hold();
      assert.ok(held.listing.includes(doomed), 'the held listing has the file deleted after it');
      await vscode.workspace.fs.delete(uriOf(doomed), { useTrash: false });
      await write(newborn);
      await waitFor(
        () =>
          events.seen.has(`delete ${doomed}`) && events.seen.has(`create ${newborn}`) ? true : undefined,
        'both file events',
        60_000,
      );
      held.release();
      await held.loading;
      const base = (path: string): string => path.slice(path.lastIndexOf('/') + 1, -'.txt'.length);
      assert.deepEqual(await found(held.index, base(doomed)), []);
      assert.deepEqual(await found(held.index, base(newborn)), [newborn]);
      assert.ok((await found(held.index, 'invoiceService')).length > 0, 'the listing itself arrived');
    } finally {
      held?.release();
      events.dispose();
      held?.index.dispose();
      await vscode.workspace.fs.delete(uriOf(newborn), { useTrash: false }).then(
        () => undefined,
        () => undefined,
      );
    }
  }

  it('keeps what the watcher reported while findFiles listed: its older list neither undoes a delete nor loses a create', async () => {
    const workspace = vscode.workspace as { findFiles: typeof vscode.workspace.findFiles };
    const realFindFiles = workspace.findFiles;
    try {
      await olderListing(`${FIXTURE}/doomed-file.txt`, `${FIXTURE}/newborn-file.txt`, async () => {
        let answered: vscode.Uri[] | undefined;
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        workspace.findFiles = async (...args) => {
          answered = await realFindFiles(...args);
          await held;
          return answered;
        };
        const { index } = spiedIndex(join(scripts, 'no-such-rg'));
        const loading = index.load();
        const listing = await waitFor(() => answered, "findFiles' answer");
        return { index, loading, listing: listing.map((uri) => uri.path).join('\n'), release };
      });
    } finally {
      workspace.findFiles = realFindFiles;
    }
  });

  it('keeps what the watcher reported while ripgrep listed: its older list neither undoes a delete nor loses a create', async () => {
    const dir = mkdtempSync(join(scripts, 'hold-'));
    // ripgrep lists at once; its output reaches the index only once the test has written `release` (bounded).
    const rg = scriptRipgrep(
      dir,
      [
        `"$REAL" "$@" > '${dir}/listing'; code=$?`,
        `: > '${dir}/listed'`,
        `i=0; while [ ! -e '${dir}/release' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done`,
        `cat '${dir}/listing'; exit $code`,
      ].join('\n'),
    );
    await olderListing(`${FIXTURE}/doomed-by-ripgrep.txt`, `${FIXTURE}/newborn-by-ripgrep.txt`, async () => {
      const { index, spawned } = spiedIndex(rg);
      const loading = index.load();
      await until(() => existsSync(join(dir, 'listed')), 30_000, "ripgrep's listing");
      assert.deepEqual(spawned, [rg]);
      const release = (): void => writeFileSync(join(dir, 'release'), '');
      return { index, loading, listing: readFileSync(join(dir, 'listing'), 'utf8'), release };
    });
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

  it('kills ripgrep when disposed while it still lists', async () => {
    const dir = mkdtempSync(join(scripts, 'slow-'));
    // A ripgrep that has listed one file and goes on walking a huge tree (until it is killed).
    const rg = scriptRipgrep(dir, `echo $$ > '${dir}/pid'\necho 'first-of-many.ts'\nexec sleep 600`);
    const { index } = spiedIndex(rg);
    const loading = index.load();
    const pid = await waitFor(
      () => Number(readFileSync(join(dir, 'pid'), 'utf8')) || undefined,
      'its pid',
      30_000,
    );
    await until(async () => (await found(index, 'first-of-many')).length === 1, 30_000, 'its first file');
    assert.ok(alive(pid));
    index.dispose();
    await loading;
    assert.equal(index.ready, false);
    await until(() => !alive(pid), 30_000, 'ripgrep to be killed');
  });

  it('stops ripgrep once the cap is reached', async () => {
    const dir = mkdtempSync(join(scripts, 'capped-'));
    const rg = scriptRipgrep(
      dir,
      `echo $$ > '${dir}/pid'\nprintf 'a.ts\\nb.ts\\nc.ts\\nd.ts\\n'\nexec sleep 600`,
    );
    const log = { info: () => undefined, warn: () => undefined };
    const cancel = new vscode.CancellationTokenSource();
    const listed: string[] = [];
    try {
      for await (const chunk of listWorkspace(
        { ripgrepPath: rg, log },
        3,
        cancel.token,
        new AbortController().signal,
      )) {
        assert.equal(chunk.kind, 'names');
        if (chunk.kind === 'names') listed.push(...chunk.paths);
      }
    } finally {
      cancel.dispose();
    }
    assert.deepEqual(listed, ['a.ts', 'b.ts', 'c.ts']);
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    await until(() => !alive(pid), 30_000, 'ripgrep to be killed');
  });
});
