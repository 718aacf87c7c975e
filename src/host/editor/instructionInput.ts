import * as vscode from 'vscode';
import { chosenInstruction } from '../../review/instructionChoice';

const HISTORY_KEY = 'modelGateway.generateCode.history';
const HISTORY_SIZE = 30;

/** Asks for an instruction in a box that offers earlier instructions; resolves undefined on Escape. */
export async function askInstruction(
  context: vscode.ExtensionContext,
  editor: vscode.TextEditor,
): Promise<string | undefined> {
  const history = context.globalState.get<string[]>(HISTORY_KEY, []);
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  pick.title = editor.selection.isEmpty
    ? vscode.l10n.t('Generate code at the cursor')
    : vscode.l10n.t('Rewrite the selection');
  pick.placeholder = vscode.l10n.t('Describe the code to write (Enter to generate, Escape to cancel)');
  pick.ignoreFocusOut = true;
  const historyItems = history.map((label) => ({ label, description: vscode.l10n.t('recent') }));
  pick.items = historyItems;
  pick.onDidChangeValue((value) => {
    pick.items = value.trim() ? [{ label: value, alwaysShow: true }, ...historyItems] : historyItems;
  });
  const chosen = await new Promise<string | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(chosenInstruction(pick.value, pick.selectedItems[0]?.label)));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  const instruction = chosen?.trim();
  if (instruction) {
    await context.globalState.update(
      HISTORY_KEY,
      [instruction, ...history.filter((h) => h !== instruction)].slice(0, HISTORY_SIZE),
    );
  }
  return instruction || undefined;
}
