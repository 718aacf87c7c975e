/**
 * The file an Apply button targets, as the webview can tell: the name its block gives in the fence's info
 * string (read from the answer's Markdown source, which the rendered block no longer carries) or in its
 * first comment line. The host checks that the file exists and otherwise uses the active editor's file, and
 * the tooltip says so.
 */
import * as l10n from '@vscode/l10n';
import { blockTarget } from '../review/blockTarget';
import { blockCode } from './codeBlock';
import { md } from './markdown';

type SourceOf = (turnId: string) => string | undefined;

/** The info string of the fence a rendered code block came from, counting blocks in the answer's order. */
function fenceInfo(block: HTMLElement, sourceOf: SourceOf): string {
  const answer = block.closest<HTMLElement>('.answer');
  const turnId = block.closest<HTMLElement>('[data-turn-id]')?.dataset.turnId;
  const source = answer && turnId ? sourceOf(turnId) : undefined;
  if (!answer || source === undefined) return '';
  const index = Array.from(answer.querySelectorAll('.code-block')).indexOf(block);
  const fences = md
    .parse(source, { keepLongRuns: true })
    .filter((t) => t.type === 'fence' || t.type === 'code_block');
  return fences[index]?.info ?? '';
}

/** The file the block names, if any. */
export function applyTargetOf(block: HTMLElement, sourceOf: SourceOf): string | undefined {
  return blockTarget(fenceInfo(block, sourceOf), blockCode(block));
}

/** The tooltip of an Apply button: the file it will change. */
export function applyTooltip(target: string | undefined): string {
  return target
    ? l10n.t(
        "Apply to {0} (or to the active editor's file if {0} is not in the workspace), with a review",
        target,
      )
    : l10n.t("Apply to the active editor's file, with a review");
}

/** Names the target in the tooltip of the Apply button under the pointer or focus, as it is about to show. */
export function nameApplyTarget(target: EventTarget | null, sourceOf: SourceOf): void {
  if (!(target instanceof Element)) return;
  const button = target.closest<HTMLElement>('[data-code-action="apply"]');
  const block = button?.closest<HTMLElement>('.code-block');
  if (button && block) button.title = applyTooltip(applyTargetOf(block, sourceOf));
}
