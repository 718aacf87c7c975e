import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { autoApprovingEntry, commandPrefix, isCompound, withAllowed } from '../../../src/agent/commandPolicy';

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const plainCommand = fc
  .tuple(
    word,
    fc.array(fc.oneof(word, fc.constantFrom('--flag', '-e', '"quoted arg"', 'src/a.ts', '(x)')), {
      maxLength: 4,
    }),
  )
  .map(([first, rest]) => [first, ...rest].join(' '));
const OPERATORS = [';', '&&', '||', '|', '>', '<', '`', '$(', '\n', '&', '>>', '2>&1', '\r\n'];

describe('agent/commandPolicy: which commands run without asking', () => {
  it('takes the program and a plain subcommand as the prefix', () => {
    assert.equal(commandPrefix('npm test'), 'npm test');
    assert.equal(commandPrefix('git status --short'), 'git status');
    assert.equal(commandPrefix('git diff HEAD~1'), 'git diff');
    assert.equal(commandPrefix('node -e "console.log(6*7)"'), 'node');
    assert.equal(commandPrefix('  cargo   build  '), 'cargo build');
    assert.equal(commandPrefix('ls'), 'ls');
  });

  it('offers no prefix for a compound command or one that does not start with a program name', () => {
    for (const command of [
      'npm test && rm -rf x',
      'FOO=1 npm test',
      '"npm" test',
      '$(echo rm) x',
      '',
      '   ',
      '(rm -rf x)',
    ])
      assert.equal(commandPrefix(command), undefined, command);
  });

  it('approves a command whose first words are an entry, word for word', () => {
    const list = ['npm test', 'git status', 'git diff'];
    assert.equal(autoApprovingEntry('npm test', list), 'npm test');
    assert.equal(autoApprovingEntry('npm test -- --grep x', list), 'npm test');
    assert.equal(autoApprovingEntry('git  status', list), 'git status');
    assert.equal(autoApprovingEntry('npm testx', list), undefined);
    assert.equal(autoApprovingEntry('npm', list), undefined);
    assert.equal(autoApprovingEntry('git push', list), undefined);
    assert.equal(autoApprovingEntry('npm test', ['', '  ']), undefined);
  });

  it('never approves a command with a shell operator, whatever the list (property)', () => {
    fc.assert(
      fc.property(
        plainCommand,
        fc.constantFrom(...OPERATORS),
        plainCommand,
        fc.boolean(),
        (a, op, b, listAll) => {
          const command = `${a} ${op} ${b}`;
          const list = listAll ? [a, a.split(' ')[0], command, b] : [a];
          assert.equal(isCompound(command), true);
          assert.equal(autoApprovingEntry(command, list), undefined);
          assert.equal(commandPrefix(command), undefined);
        },
      ),
    );
  });

  it('a plain command is approved by its own prefix, and the prefix is its first words (property)', () => {
    fc.assert(
      fc.property(plainCommand, (command) => {
        const prefix = commandPrefix(command);
        assert.ok(prefix !== undefined);
        assert.ok(command.startsWith(prefix));
        assert.ok(prefix.split(' ').length <= 2);
        assert.equal(autoApprovingEntry(command, withAllowed([], prefix)), prefix);
        assert.equal(autoApprovingEntry(command, []), undefined);
      }),
    );
  });

  it('adds a prefix to the list once', () => {
    assert.deepEqual(withAllowed(['git status'], 'npm test'), ['git status', 'npm test']);
    assert.deepEqual(withAllowed(['npm test'], 'npm test'), ['npm test']);
  });
});
