/**
 * The top-level blocks of a rendered Markdown text are kept in groups (`div.md-group`) of a fixed number of
 * blocks instead of as thousands of siblings. While an answer streams, only its open tail changes; the
 * browser then lays out the answer's few dozen groups (reusing each unchanged group's layout) rather than
 * walking every block, so the layout cost of a frame stays nearly flat as a long answer grows.
 *
 * Groups are filled in order, each up to BLOCKS_PER_GROUP, whether the blocks arrive in one piece
 * (renderMarkdownOnce) or a few at a time (StreamRenderer): both give the same DOM, but for the class
 * that lets a streamed answer's older groups skip rendering off screen (markSkippableGroups). Other groups
 * have no box of their own (no padding, border or containment), so margins collapse across them as between
 * siblings.
 */
const BLOCKS_PER_GROUP = 32;
const GROUP_CLASS = 'md-group';

/** Moves `nodes` (in order) into the groups of `container` that come just before `before` (null: the end). */
export function appendGrouped(container: HTMLElement, nodes: ArrayLike<Node>, before: Node | null): void {
  const queue = Array.from(nodes);
  const previous = before ? before.previousSibling : container.lastChild;
  let group = previous instanceof HTMLElement && previous.classList.contains(GROUP_CLASS) ? previous : null;
  while (queue.length) {
    if (!group || group.childNodes.length >= BLOCKS_PER_GROUP) {
      group = document.createElement('div');
      group.className = GROUP_CLASS;
      container.insertBefore(group, before);
    }
    group.append(...queue.splice(0, BLOCKS_PER_GROUP - group.childNodes.length));
  }
}

/** Groups that may skip rendering while off screen (chat.css); see markSkippableGroups. */
const SKIPPABLE_CLASS = 'md-skippable';
/**
 * The newest groups are never skippable: a group is skipped until the next rendering update finds it on
 * screen, and while skipped its text is missing from innerText.
 */
const NEWEST_KEPT = 2;

/**
 * Marks every group of `container` but the newest two as skippable (streamed answers only). Walks back from
 * the newest group and stops at the first group already marked, so each call costs the groups it marks.
 */
export function markSkippableGroups(container: HTMLElement): void {
  let group = container.lastElementChild;
  while (group && !group.classList.contains(GROUP_CLASS)) group = group.previousElementSibling;
  for (let i = 0; i < NEWEST_KEPT && group; i++) group = group.previousElementSibling;
  while (group?.classList.contains(GROUP_CLASS) && !group.classList.contains(SKIPPABLE_CLASS)) {
    group.classList.add(SKIPPABLE_CLASS);
    group = group.previousElementSibling;
  }
}
