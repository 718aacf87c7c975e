// No user-facing text in the extension host or the webview bypasses l10n: see literalScan.ts for what counts.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot } from '../../harness/paths';
import { scanFiles, scanSource, tsFilesBelow } from './literalScan';

describe('l10n: no user-facing literal outside t()', () => {
  it('src/host, src/webview and src/extension.ts pass every shown string through t()', () => {
    const files = [
      ...tsFilesBelow(join(repoRoot, 'src/host')),
      ...tsFilesBelow(join(repoRoot, 'src/webview')),
      join(repoRoot, 'src/extension.ts'),
    ];
    const found = scanFiles(repoRoot, files).map((f) => `${f.file}:${f.line}: ${f.text}`);
    assert.deepEqual(
      found,
      [],
      'wrap these in vscode.l10n.t (host) or l10n.t (webview), then `npm run l10n:export`',
    );
  });

  describe('the scan itself', () => {
    const flagged = (source: string): string[] => scanSource('x.ts', source).map((f) => f.text);

    it('flags literals that reach a notification, a quick pick, a status bar item, the DOM or an aria-label', () => {
      const source = `
        vscode.window.showWarningMessage('Open a file first.');
        vscode.window.showErrorMessage(\`Saving \${name} failed\`, 'Retry');
        pick.title = cond ? 'Rewrite the selection' : 'Generate code';
        item.tooltip = 'Click to turn them off';
        vscode.window.showQuickPick(items, { placeHolder: 'Choose one' });
        el.textContent = 'Thinking';
        h('button', { 'aria-label': 'Send', title: 'Send (Enter)' });
        h('span', {}, 'Jump to latest');
        iconButton('close', \`Remove \${chip.name}\`);
        const NOTE = 'Nothing was saved, try again.';
      `;
      assert.deepEqual(flagged(source), [
        'Open a file first.',
        'Saving ${…} failed',
        'Retry',
        'Rewrite the selection',
        'Generate code',
        'Click to turn them off',
        'Choose one',
        'Thinking',
        'Send',
        'Send (Enter)',
        'Jump to latest',
        'Remove ${…}',
        'Nothing was saved, try again.',
      ]);
    });

    it('lets through t(), log lines, ids, codicons, comparisons and marked exemptions', () => {
      const source = `
        vscode.window.showWarningMessage(vscode.l10n.t('Open a file first.'));
        el.textContent = l10n.t('Thinking ({0})', d);
        log.info('Model discovery skipped: no API key is set.');
        vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway.baseUrl');
        h('i', { class: 'codicon codicon-send', 'aria-hidden': 'true' });
        item.text = \`$(check) \${text}\`;
        if (choice === 'Show Log') run();
        throw new Error('unreachable: no such state');
        // l10n-exempt: the product's name
        createOutputChannel('Model Gateway');
      `;
      assert.deepEqual(flagged(source), []);
    });
  });
});
