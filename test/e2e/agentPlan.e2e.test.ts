// Plan mode in the real editor (issue 27): a Plan run is offered and calls read-only tools only, on
// `modelGateway.agent.planModel`; "Start with Agent" switches the conversation to Agent and the next request carries
// the plan and "Carry out this plan".
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readableModelName } from '../../src/gateway/modelNames';
import { CARRY_OUT_ANSWER, PLAN_ANSWER } from '../gateway-emulator/agentRuns';
import { screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { chatRequestsOf } from '../support/emulatorRequests';
import { articles, emulator, modeSelect, openNewChat, send, until } from './chatHelpers';
import { isDarkTheme, toggleTheme } from './editorHelpers';

type Message = { role: string; content: string | null };
type Body = { model: string; tools?: Array<{ function: { name: string } }>; messages: Message[] };

const READ_ONLY = ['read_file', 'list_dir', 'find_files', 'search_text', 'search_symbols', 'get_problems'];
const PLAN_MODEL = 'alpha-opus-4-20250514';
/** An extra model named in the same settings write: once the picker lists it, the plan model is in force too. */
const PROBE_MODEL = 'plan-settings-probe';

const toolNames = (body: Body): string[] => (body.tools ?? []).map((t) => t.function.name);

describe('Plan mode in the real editor', function () {
  this.timeout(240_000);
  const originals = new Map<string, Buffer>();
  let settingsFile = '';
  let settingsBefore: string | undefined;

  before(() => {
    const { folder } = e2e();
    for (const path of ['src/sample.ts', 'README.md']) originals.set(path, readFileSync(join(folder, path)));
    settingsFile = join(folder, '.vscode', 'settings.json');
    settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
  });
  // The suites after this one expect the fixture and its settings as they were.
  after(() => {
    const { folder } = e2e();
    for (const [path, bytes] of originals) writeFileSync(join(folder, path), bytes);
    if (settingsBefore === undefined) rmSync(settingsFile, { force: true });
    else writeFileSync(settingsFile, settingsBefore);
  });

  it('plans with read-only tools on the plan model; Start with Agent carries the plan out in Agent mode', async () => {
    const { page, folder } = e2e();
    const frame = await openNewChat(page);
    mkdirSync(dirname(settingsFile), { recursive: true });
    writeFileSync(
      settingsFile,
      JSON.stringify({
        ...(settingsBefore ? (JSON.parse(settingsBefore) as object) : {}),
        'modelGateway.agent.planModel': PLAN_MODEL,
        'modelGateway.chat.extraModels': [PROBE_MODEL],
      }),
    );
    const picker = frame.getByRole('combobox', { name: 'Model', exact: true });
    await until(
      async () => (await picker.locator(`option[value="${PROBE_MODEL}"]`).count()) === 1,
      30_000,
      'the new settings in force',
    );
    const chatModel = await picker.inputValue();
    assert.notEqual(chatModel, PLAN_MODEL, 'the chat’s own model is another one');

    const mode = modeSelect(frame);
    assert.deepEqual(await mode.locator('option').allTextContents(), ['Ask', 'Agent', 'Plan']);
    await mode.selectOption({ label: 'Plan' });
    const since = emulator().requests.length;
    await send(frame, 'How should greet trim the name? [[agent:plan]]');
    const answer = articles(frame, /^Assistant /).last();
    // Rendered Markdown: the numbered list's items, without their numbers and backticks.
    const firstStep = 'In src/sample.ts, make greet trim the name it is given.';
    await until(async () => (await answer.innerText()).includes(firstStep), 60_000, 'the plan');
    const start = answer.getByRole('button', { name: 'Start with Agent', exact: true });
    await start.waitFor({ timeout: 20_000 });
    assert.equal(await answer.locator('ol > li').count(), 3, 'a numbered plan of three steps');

    // On the wire: three requests (read, search, plan) on the plan model, offering the read-only tools only.
    const bodies = chatRequestsOf(emulator(), since).map((r) => r.body as Body);
    assert.equal(bodies.length, 3);
    for (const body of bodies) {
      assert.equal(body.model, PLAN_MODEL);
      assert.deepEqual(toolNames(body), READ_ONLY);
      assert.match(body.messages[0].content ?? '', /Plan mode/);
    }
    // The turn names the model that planned; the rows are the read and the search.
    assert.equal(await answer.getAttribute('aria-label'), `Assistant ${readableModelName(PLAN_MODEL)}`);
    const rows = answer.getByRole('button', { name: /^(Read|Searched)/ });
    assert.equal(await rows.count(), 2);

    const jump = frame.getByRole('button', { name: /Jump to latest/ });
    if (await jump.isVisible()) await jump.click();
    for (let shot = 0; shot < 2; shot++) {
      const dark = shot > 0 ? await toggleTheme(page, frame) : await isDarkTheme(page);
      await screenshot(page, dark ? 'e2e-agent-plan-dark' : 'e2e-agent-plan-light');
    }
    await toggleTheme(page, frame);

    const carrySince = emulator().requests.length;
    await start.click();
    await until(async () => (await mode.inputValue()) === 'agent', 10_000, 'the Mode select on Agent');
    const done = articles(frame, /^Assistant /).last();
    await until(
      async () => (await done.innerText()).includes(CARRY_OUT_ANSWER),
      60_000,
      'the carried-out plan',
    );
    assert.equal(
      await frame.getByRole('button', { name: 'Start with Agent', exact: true }).count(),
      0,
      'the plan is no longer the latest turn: its button went',
    );
    await until(
      async () => (await articles(frame, 'You').last().innerText()).includes('Carry out this plan'),
      10_000,
      'the message sent',
    );
    // The next request: Agent mode on the chat's model, with the edit tools, the plan before "Carry out this plan".
    const carried = chatRequestsOf(emulator(), carrySince).map((r) => r.body as Body);
    assert.equal(carried.length, 3, 'read, edit, answer');
    const first = carried[0];
    assert.equal(first.model, chatModel);
    assert.ok(toolNames(first).includes('edit_file'));
    const last = first.messages.at(-1);
    assert.deepEqual([last?.role, last?.content], ['user', 'Carry out this plan']);
    const plan = first.messages.at(-2);
    assert.equal(plan?.role, 'assistant');
    assert.ok(plan?.content?.includes(PLAN_ANSWER), 'the plan is in the request before the message');
    assert.ok(readFileSync(join(folder, 'src', 'sample.ts'), 'utf8').includes('name.trim()'));

    // The chat goes back to Ask for the tests that follow.
    await mode.selectOption({ label: 'Ask' });
  });
});
