// Loads the display language's strings for @vscode/l10n before any view is built: main.ts imports this first.
import * as l10n from '@vscode/l10n';
import { L10N_ATTRIBUTE, parseL10nContents } from '../l10nContents';

const contents = parseL10nContents(document.getElementById('app')?.getAttribute(L10N_ATTRIBUTE));
if (contents) l10n.config({ contents });
