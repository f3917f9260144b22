// @vitest-environment jsdom
/**
 * The form kit as an admin meets it, over the contract's own create-session schema: limits shown and checked
 * before anything is sent, a 422's errors on the fields they name and the rest on the form, focus on the first
 * invalid field, secrets cleared once sent, and the tags, combobox and date-time fields by keyboard.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreateSessionBody, SESSION_LIMITS } from '@/api/operations/sessions';
import { problem, type FieldError } from '@/api/problem';
import { ApiError } from '@/lib/api-error';
import { formatUtc } from '@/lib/format';
import {
  ComboboxField,
  DateTimeField,
  Form,
  KeyValueField,
  SubmitButton,
  TagsField,
  TextareaField,
  TextField,
} from './index';

beforeAll(() => {
  // What jsdom lacks and Radix uses (the checkbox measures itself; lists scroll the active option into view).
  Element.prototype.scrollIntoView ??= () => {};
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
afterEach(cleanup);

interface Values {
  prompt: string;
  title: string;
  tags: string[];
  playbook_id: string;
  session_secrets: Array<{ key: string; value: string; sensitive: boolean }>;
  max_acu_limit: number | undefined;
}

const EMPTY: Values = {
  prompt: '',
  title: '',
  tags: [],
  playbook_id: '',
  session_secrets: [],
  max_acu_limit: undefined,
};

/** Empty optional fields are left out of the body, as the create-session form does. */
function toBody(v: Values): CreateSessionBody {
  const body: CreateSessionBody = { prompt: v.prompt };
  if (v.title) body.title = v.title;
  if (v.tags.length) body.tags = v.tags;
  if (v.playbook_id) body.playbook_id = v.playbook_id;
  if (v.session_secrets.length) body.session_secrets = v.session_secrets;
  if (v.max_acu_limit !== undefined) body.max_acu_limit = v.max_acu_limit;
  return body;
}

const unprocessable = (errors: FieldError[]) =>
  new ApiError(422, problem(422, 'The body is invalid', { errors }), undefined, 'sessions.create');

function renderForm(onSubmit: (body: CreateSessionBody) => Promise<unknown>) {
  render(
    <Form
      schema={CreateSessionBody}
      defaultValues={EMPTY}
      toBody={toBody}
      onSubmit={onSubmit}
      aria-label="New session"
      actions={<SubmitButton pendingLabel="Creating…">Create session</SubmitButton>}
    >
      <TextareaField name="prompt" label="Prompt" description="What the agent should do." />
      <TextField name="title" label="Title" />
      <TagsField name="tags" label="Tags" />
      <ComboboxField
        name="playbook_id"
        label="Playbook"
        searchLabel="Search playbooks"
        placeholder="No playbook"
        options={[
          { value: '', label: 'No playbook' },
          { value: 'playbook-release', label: 'Release checklist' },
          { value: 'playbook-triage', label: 'Bug triage' },
          { value: 'playbook-review', label: 'Code review' },
        ]}
      />
      <KeyValueField
        name="session_secrets"
        label="Session secrets"
        itemLabel="Secret"
        unit="secrets"
        sensitiveName="sensitive"
        secret
        newRow={() => ({ key: '', value: '', sensitive: true })}
      />
    </Form>,
  );
}

describe('Form', () => {
  it('shows the limit from the schema and refuses a value past it before anything is sent', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn<(body: CreateSessionBody) => Promise<unknown>>(() => Promise.resolve());
    renderForm(onSubmit);

    // Read from the contract: title is z.string().max(200), tags z.array().max(50), prompt z.string().max(100000).
    expect(screen.getByText('0 / 200')).toBeInTheDocument();
    expect(screen.getByText('0 / 50 tags')).toBeInTheDocument();
    expect(screen.getByText('0 / 100,000')).toBeInTheDocument();
    expect(screen.getByText('0 / 50 secrets')).toBeInTheDocument();

    const title = screen.getByLabelText('Title');
    await user.click(title);
    await user.paste('x'.repeat(SESSION_LIMITS.title));
    expect(screen.getByText('200 / 200')).toBeInTheDocument();
    expect(title).not.toHaveAttribute('aria-invalid');

    await user.type(title, 'y');
    const count = screen.getByText('201 / 200');
    expect(count).toHaveAttribute('data-over');
    // The contract's own message, the moment the limit is crossed, without leaving the field or submitting.
    const error = await screen.findByText('title is at most 200 characters');
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title.getAttribute('aria-describedby')!.split(' ')).toEqual(expect.arrayContaining([count.id, error.id]));
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(title, '{Backspace}');
    expect(screen.getByText('200 / 200')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('title is at most 200 characters')).not.toBeInTheDocument());
    expect(title).not.toHaveAttribute('aria-invalid');
  });

  it('focuses the first invalid field on submit and sends nothing', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn<(body: CreateSessionBody) => Promise<unknown>>(() => Promise.resolve());
    renderForm(onSubmit);
    await user.type(screen.getByLabelText('Title'), 'A title');
    await user.click(screen.getByRole('button', { name: 'Create session' }));

    const prompt = screen.getByRole('textbox', { name: /Prompt/ });
    expect(await screen.findByText('prompt must not be empty: say what the agent should do')).toBeInTheDocument();
    expect(prompt).toHaveAttribute('aria-invalid', 'true');
    expect(prompt).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('puts a 422’s errors on the fields they name, with aria-invalid, and focuses the first', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() =>
      Promise.reject(
        unprocessable([
          { loc: ['body', 'prompt'], msg: 'prompt is refused by the content policy' },
          { loc: ['body', 'tags', 1], msg: 'a tag is at most 64 characters' },
        ]),
      ),
    );
    renderForm(onSubmit);
    const prompt = screen.getByRole('textbox', { name: /Prompt/ });
    await user.type(prompt, 'Fix the flaky test');
    const tags = screen.getByRole('textbox', { name: 'Tags' });
    await user.type(tags, 'ci, flaky{Enter}');
    await user.click(screen.getByRole('button', { name: 'Create session' }));

    expect(onSubmit).toHaveBeenCalledWith({ prompt: 'Fix the flaky test', tags: ['ci', 'flaky'] }, expect.anything());
    const error = await screen.findByText('prompt is refused by the content policy');
    expect(prompt).toHaveAttribute('aria-invalid', 'true');
    expect(prompt.getAttribute('aria-describedby')!.split(' ')).toContain(error.id);
    expect(prompt).toHaveFocus();
    // `tags.1` is shown by the tags field, which holds it.
    expect(screen.getByText('a tag is at most 64 characters')).toBeInTheDocument();
    expect(tags).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('The request was refused')).not.toBeInTheDocument();
  });

  it('puts what names no field on the form-level alert', async () => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn<(body: CreateSessionBody) => Promise<unknown>>()
      .mockRejectedValueOnce(
        unprocessable([
          { loc: ['body', 'title'], msg: 'title is already used' },
          { loc: ['body', 'repos', 0], msg: 'repos items are written owner/name' },
          { loc: ['body'], msg: 'the organization has reached its session limit' },
        ]),
      )
      .mockRejectedValueOnce(new ApiError(409, problem(409, 'A session with this title is starting')));
    renderForm(onSubmit);
    await user.type(screen.getByRole('textbox', { name: /Prompt/ }), 'Do it');
    await user.click(screen.getByRole('button', { name: 'Create session' }));

    const form = screen.getByRole('form', { name: 'New session' });
    const alert = await within(form).findByText('The request was refused');
    const box = alert.closest('[role="alert"]') as HTMLElement;
    expect(box).toHaveTextContent('repos.0: repos items are written owner/name');
    expect(box).toHaveTextContent('the organization has reached its session limit');
    expect(box).not.toHaveTextContent('title is already used');
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: /Prompt/ })).not.toHaveAttribute('aria-invalid');

    // Any other failure is the form's too, and the next submit starts from a clean alert.
    await user.clear(screen.getByLabelText('Title'));
    await user.click(screen.getByRole('button', { name: 'Create session' }));
    expect(await within(form).findByText('Conflict')).toBeInTheDocument();
    expect(within(form).queryByText('The request was refused')).not.toBeInTheDocument();
  });

  it('clears write-only secrets after a successful submit, and keeps them after a failed one', async () => {
    const user = userEvent.setup();
    let release: (v: unknown) => void = () => {};
    const onSubmit = vi
      .fn<(body: CreateSessionBody) => Promise<unknown>>()
      .mockRejectedValueOnce(new ApiError(0, problem(502, 'Failed to fetch')))
      .mockImplementationOnce(() => new Promise((resolve) => (release = resolve)));
    renderForm(onSubmit);
    await user.type(screen.getByRole('textbox', { name: /Prompt/ }), 'Deploy');
    await user.click(screen.getByRole('button', { name: 'Add secret' }));
    await user.type(screen.getByLabelText(/Secret 1 key/), 'NPM_TOKEN');
    const value = screen.getByLabelText('Secret 1 value');
    expect(value).toHaveAttribute('type', 'password');
    expect(value).toHaveAttribute('autocomplete', 'new-password');
    await user.type(value, 'npm_secret_value');
    expect(screen.getByText('1 / 50 secrets')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create session' }));
    expect(await screen.findByText('Failed to fetch')).toBeInTheDocument();
    expect(value).toHaveValue('npm_secret_value');

    await user.click(screen.getByRole('button', { name: 'Create session' }));
    // Pending: the button says so and cannot be pressed twice.
    expect(await screen.findByRole('button', { name: 'Creating…' })).toBeDisabled();
    await act(async () => release({}));
    expect(onSubmit).toHaveBeenLastCalledWith(
      { prompt: 'Deploy', session_secrets: [{ key: 'NPM_TOKEN', value: 'npm_secret_value', sensitive: true }] },
      expect.anything(),
    );
    await vi.waitFor(() => expect(value).toHaveValue(''));
    expect(screen.getByLabelText(/Secret 1 key/)).toHaveValue('NPM_TOKEN');
    expect(screen.queryByText('Failed to fetch')).not.toBeInTheDocument();
  });
});

describe('fields', () => {
  it('tags: Enter and comma add chips, Backspace removes the last, the count follows', async () => {
    const user = userEvent.setup();
    renderForm(() => Promise.resolve());
    const tags = screen.getByRole('textbox', { name: 'Tags' });
    await user.type(tags, 'bug{Enter}backend,urgent,');
    const chips = screen.getByRole('list', { name: 'tags chosen' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['bug', 'backend', 'urgent']);
    expect(screen.getByText('3 / 50 tags')).toBeInTheDocument();
    await user.type(tags, '{Backspace}');
    expect(screen.getByText('2 / 50 tags')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove tag bug' }));
    expect(within(screen.getByRole('list', { name: 'tags chosen' })).getAllByRole('listitem')).toHaveLength(1);
  });

  it('combobox: filters as typed and chooses with the keyboard', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn<(body: CreateSessionBody) => Promise<unknown>>(() => Promise.resolve());
    renderForm(onSubmit);
    const trigger = screen.getByRole('combobox', { name: 'Playbook' });
    expect(trigger).toHaveTextContent('No playbook');
    await user.click(trigger);
    const search = await screen.findByRole('combobox', { name: 'Search playbooks' });
    expect(search).toHaveFocus();
    await user.type(search, 're');
    const listbox = screen.getByRole('listbox', { name: 'Search playbooks' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Release checklist', 'Code review']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(trigger).toHaveTextContent('Code review');
    expect(trigger).toHaveFocus();
    await user.type(screen.getByRole('textbox', { name: /Prompt/ }), 'Review it');
    await user.click(screen.getByRole('button', { name: 'Create session' }));
    expect(onSubmit).toHaveBeenCalledWith({ prompt: 'Review it', playbook_id: 'playbook-review' }, expect.anything());
  });

  it('date-time: typed in local time, held as Unix seconds, shown in UTC beside', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn<(body: CreateSessionBody) => Promise<unknown>>(() => Promise.resolve());
    const schema = CreateSessionBody.pick({ prompt: true, max_acu_limit: true });
    render(
      <Form
        schema={schema}
        defaultValues={{ prompt: 'x', max_acu_limit: 1_767_225_600 }}
        onSubmit={onSubmit}
        actions={<SubmitButton>Send</SubmitButton>}
      >
        <DateTimeField name="max_acu_limit" label="Not before" />
      </Form>,
    );
    const input = screen.getByLabelText('Not before');
    expect(screen.getByText(`UTC ${formatUtc(1_767_225_600)}`)).toBeInTheDocument();
    // (jsdom cannot type into a datetime-local box, which browsers edit part by part.)
    fireEvent.change(input, { target: { value: '' } });
    expect(screen.getByText('UTC —')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: '2026-03-01T14:05:09' } });
    const seconds = Math.floor(new Date('2026-03-01T14:05:09').getTime() / 1000);
    expect(screen.getByText(`UTC ${formatUtc(seconds)}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalledWith({ prompt: 'x', max_acu_limit: seconds }, expect.anything());
  });
});
