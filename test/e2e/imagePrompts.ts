// Answers the prompts of "Model Gateway: Generate Image" through the real quick input, as a user would.
import type { Locator, Page } from 'playwright-core';
import { acceptInputBox, quickInput } from '../harness/browser';
import { retrying } from '../support/retry';

/** The pickers after the prompt, in order (their titles are "Generate Image: <step>"). */
export const IMAGE_STEPS = ['Size', 'Quality', 'How many images'] as const;
export type ImageStep = (typeof IMAGE_STEPS)[number];

/**
 * Types the prompt, then in each picker takes `choices[step]`, or the default (the first row) with Enter.
 * The widget is reused from step to step, so each Enter waits for that step's own row to be the active one:
 * pressed earlier, it lands on the previous step or on a picker with no items yet, and does nothing.
 */
export async function answerImagePrompts(
  page: Page,
  prompt: string,
  choices: Partial<Record<ImageStep, string>> = {},
): Promise<void> {
  await acceptInputBox(page, prompt, { nextStep: `Generate Image: ${IMAGE_STEPS[0]}` });
  for (const step of IMAGE_STEPS) {
    const picker = page.locator('.quick-input-widget').filter({ hasText: `Generate Image: ${step}` });
    const choice = choices[step];
    if (choice) await quickInput(page).fill(choice);
    const active = picker.locator('.monaco-list-row.focused').filter({ hasText: choice ?? 'default' });
    await active.waitFor({ timeout: 10_000 });
    await acceptStep(page, picker);
  }
}

/**
 * Presses Enter in the picker's own input until the step closes (three tries). The image tab the previous
 * test opened can take the keyboard focus as it loads, and an Enter pressed then goes to the editor.
 */
async function acceptStep(page: Page, picker: Locator): Promise<void> {
  await retrying(3, async () => {
    await quickInput(page).focus();
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'hidden', timeout: 4_000 });
  });
}
