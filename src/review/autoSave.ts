// While an edit is proposed in a document, VS Code's auto-save must not write it to disk. An extension cannot
// veto a save (onWillSaveTextDocument can only add edits), but `files.autoSave` can be overridden per
// language: the review sets it to "off" for the document's language and puts back what was there after.

/** A settings level an extension can write. */
export type SettingLevel = 'global' | 'workspace' | 'workspaceFolder';

/** `files.autoSave` at each level, as `WorkspaceConfiguration.inspect` reports it for one language. */
export interface AutoSaveValues {
  defaultValue?: string;
  globalValue?: string;
  workspaceValue?: string;
  workspaceFolderValue?: string;
  defaultLanguageValue?: string;
  globalLanguageValue?: string;
  workspaceLanguageValue?: string;
  workspaceFolderLanguageValue?: string;
}

/** What suspending writes: "off" for the language at `level`; `previous` is that level's value before. */
export interface AutoSaveSuspension {
  level: SettingLevel;
  previous: string | undefined;
}

/** The value auto-save is off with. */
export const AUTO_SAVE_OFF = 'off';

/** Workspace-state key of the suspension in force, so one a session left behind is ended by the next. */
export const AUTO_SAVE_NOTE_KEY = 'modelGateway.review.autoSaveSuspension';

/** The value VS Code uses: a language's values beat the plain ones, and a narrower level a wider one. */
export function effectiveAutoSave(values: AutoSaveValues): string {
  return (
    values.workspaceFolderLanguageValue ??
    values.workspaceLanguageValue ??
    values.globalLanguageValue ??
    values.defaultLanguageValue ??
    values.workspaceFolderValue ??
    values.workspaceValue ??
    values.globalValue ??
    values.defaultValue ??
    AUTO_SAVE_OFF
  );
}

/**
 * Where to write "off" so that it wins, or undefined when auto-save is off already. The language value is
 * written at the narrowest level that has one (a wider level would lose to it), else in the user's settings,
 * which neither touch the project's files nor outlive the review.
 */
export function planSuspension(values: AutoSaveValues): AutoSaveSuspension | undefined {
  if (effectiveAutoSave(values) === AUTO_SAVE_OFF) return undefined;
  if (values.workspaceFolderLanguageValue !== undefined)
    return { level: 'workspaceFolder', previous: values.workspaceFolderLanguageValue };
  if (values.workspaceLanguageValue !== undefined)
    return { level: 'workspace', previous: values.workspaceLanguageValue };
  return { level: 'global', previous: values.globalLanguageValue };
}

/** The language value at a level. */
export function languageValueAt(values: AutoSaveValues, level: SettingLevel): string | undefined {
  if (level === 'workspaceFolder') return values.workspaceFolderLanguageValue;
  if (level === 'workspace') return values.workspaceLanguageValue;
  return values.globalLanguageValue;
}

/**
 * Whether ending a suspension writes `previous` back: only while the level still holds the "off" it wrote,
 * so a value the user chose meanwhile is kept.
 */
export function shouldRestore(suspension: AutoSaveSuspension, values: AutoSaveValues): boolean {
  return languageValueAt(values, suspension.level) === AUTO_SAVE_OFF && suspension.previous !== AUTO_SAVE_OFF;
}
