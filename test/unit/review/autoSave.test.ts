import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  effectiveAutoSave,
  languageValueAt,
  planSuspension,
  shouldRestore,
  type AutoSaveValues,
} from '../../../src/review/autoSave';

const modes = ['off', 'afterDelay', 'onFocusChange', 'onWindowChange'] as const;
const maybeMode = fc.option(fc.constantFrom(...modes), { nil: undefined });
/** Any mix of values over the levels, the default always set (as VS Code reports it). */
const anyValues: fc.Arbitrary<AutoSaveValues> = fc.record({
  defaultValue: fc.constantFrom(...modes),
  globalValue: maybeMode,
  workspaceValue: maybeMode,
  workspaceFolderValue: maybeMode,
  defaultLanguageValue: maybeMode,
  globalLanguageValue: maybeMode,
  workspaceLanguageValue: maybeMode,
  workspaceFolderLanguageValue: maybeMode,
});

describe('review/autoSave: keeping a proposal out of auto-save', () => {
  it("reads VS Code's precedence: a language's value beats every plain one, a narrower level a wider one", () => {
    assert.equal(effectiveAutoSave({ defaultValue: 'afterDelay' }), 'afterDelay');
    assert.equal(effectiveAutoSave({ defaultValue: 'afterDelay', workspaceValue: 'off' }), 'off');
    assert.equal(
      effectiveAutoSave({ workspaceFolderValue: 'onFocusChange', globalLanguageValue: 'afterDelay' }),
      'afterDelay',
    );
    assert.equal(
      effectiveAutoSave({ globalLanguageValue: 'off', workspaceLanguageValue: 'afterDelay' }),
      'afterDelay',
    );
  });

  it("code-server's default (afterDelay): writes off in the user's settings for the language, nothing to put back", () => {
    assert.deepEqual(planSuspension({ defaultValue: 'afterDelay' }), {
      level: 'global',
      previous: undefined,
    });
    assert.deepEqual(planSuspension({ defaultValue: 'afterDelay', workspaceValue: 'onFocusChange' }), {
      level: 'global',
      previous: undefined,
    });
  });

  it('does nothing when auto-save is off already', () => {
    assert.equal(planSuspension({ defaultValue: 'off' }), undefined);
    assert.equal(planSuspension({ defaultValue: 'afterDelay', globalLanguageValue: 'off' }), undefined);
  });

  it("writes where the language's own value is, and remembers it", () => {
    assert.deepEqual(planSuspension({ defaultValue: 'off', globalLanguageValue: 'afterDelay' }), {
      level: 'global',
      previous: 'afterDelay',
    });
    assert.deepEqual(
      planSuspension({
        defaultValue: 'off',
        globalLanguageValue: 'off',
        workspaceLanguageValue: 'afterDelay',
      }),
      { level: 'workspace', previous: 'afterDelay' },
    );
    assert.deepEqual(
      planSuspension({ defaultValue: 'off', workspaceFolderLanguageValue: 'onWindowChange' }),
      { level: 'workspaceFolder', previous: 'onWindowChange' },
    );
  });

  it('for any settings, writing the plan turns auto-save off, and restoring it gives the settings back', () => {
    fc.assert(
      fc.property(anyValues, (values) => {
        const plan = planSuspension(values);
        if (effectiveAutoSave(values) === 'off') return plan === undefined;
        assert.ok(plan);
        assert.equal(plan.previous, languageValueAt(values, plan.level));
        const key = `${plan.level}LanguageValue` as const;
        const suspended = { ...values, [key]: 'off' };
        assert.equal(effectiveAutoSave(suspended), 'off');
        assert.ok(shouldRestore(plan, suspended));
        assert.deepEqual({ ...suspended, [key]: plan.previous }, { ...values, [key]: plan.previous });
        assert.equal(effectiveAutoSave({ ...suspended, [key]: plan.previous }), effectiveAutoSave(values));
        return true;
      }),
    );
  });

  it('keeps a value the user chose during the review', () => {
    const plan = { level: 'global', previous: undefined } as const;
    assert.equal(shouldRestore(plan, { globalLanguageValue: 'off' }), true);
    assert.equal(shouldRestore(plan, { globalLanguageValue: 'onFocusChange' }), false);
    assert.equal(shouldRestore(plan, {}), false);
  });
});
