import * as vscode from 'vscode';

/** How long a confirmation stays in the status bar. */
const CONFIRM_MS = 15_000;

/**
 * A confirmation where the user is looking: a status bar entry that runs `command` when clicked (Open,
 * Reveal), gone after 15 s. Notifications alone end up unseen in the notification list.
 */
export function confirmInStatusBar(text: string, command: vscode.Command): void {
  const item = vscode.window.createStatusBarItem(
    'modelGateway.confirmation',
    vscode.StatusBarAlignment.Left,
    1000,
  );
  item.name = vscode.l10n.t('Model Gateway Confirmation');
  item.text = `$(check) ${text} — ${command.title}`;
  item.tooltip = vscode.l10n.t('{0}. Click: {1}', text, command.title);
  item.accessibilityInformation = { label: `${text}. ${command.title}`, role: 'button' };
  item.command = command;
  item.show();
  setTimeout(() => item.dispose(), CONFIRM_MS);
}
