import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { makeSurvey, makeTask, makeTemplate } from '../../../testing/task-fixtures.ts';
import { NewTaskDialog } from './new-task-dialog.tsx';

const surveyed = makeTemplate(6, {
  name: 'Surveyed',
  allow_override_args_in_task: true,
  survey_vars: makeSurvey(),
});

describe('NewTaskDialog', () => {
  it('validates the survey on submit and sends nothing while it fails', async () => {
    const { calls } = stubFetch({ 'GET /api/project/1/templates/6': () => json(200, surveyed) });
    renderWithProviders(<NewTaskDialog projectId={1} templateId={6} onClose={() => {}} onCreated={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Count'), { target: { value: '4a' } });
    // Lazy: nothing is flagged before the first submit.
    expect(screen.queryByText('Must be integer')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('Region is required')).toBeTruthy();
    expect(screen.getByText('Must be integer')).toBeTruthy();
    expect(screen.getByText('Token is required')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('sends survey answers, the secret apart and the CLI args as a JSON array, then hands over the new task', async () => {
    const { calls } = stubFetch({
      'GET /api/project/1/templates/6': () => json(200, surveyed),
      'POST /api/project/1/tasks': () => json(201, makeTask(42, { template_id: 6 })),
    });
    const onCreated = vi.fn();
    renderWithProviders(<NewTaskDialog projectId={1} templateId={6} onClose={() => {}} onCreated={onCreated} />);
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Region/ }));
    fireEvent.click(within(await screen.findByRole('listbox')).getByText('Europe'));
    fireEvent.change(screen.getByLabelText('Count'), { target: { value: '12' } });
    fireEvent.change(screen.getByLabelText(/^Token/), { target: { value: 's3cret' } });
    const arg = screen.getByRole('textbox', { name: 'Add argument' });
    fireEvent.change(arg, { target: { value: '--check' } });
    fireEvent.keyDown(arg, { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(42));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      template_id: 6,
      environment: '{"region":"eu","count":12}',
      secret: '{"token":"s3cret"}',
      arguments: '["--check"]',
    });
  });

  it('preselects the newest build for a deploy and requires one', async () => {
    const deploy = makeTemplate(9, { name: 'Deploy', type: 'deploy', build_template_id: 5 });
    const builds = [
      makeTask(3, { status: 'success', version: '1.0.2', tpl_type: 'build' }),
      makeTask(2, { status: 'success', version: '1.0.1', tpl_type: 'build' }),
    ];
    const { calls } = stubFetch({
      'GET /api/project/1/templates/9': () => json(200, deploy),
      'GET /api/project/1/templates/5/tasks?status=success': () => json(200, builds),
      'POST /api/project/1/tasks': () => json(201, makeTask(50, { template_id: 9 })),
    });
    renderWithProviders(<NewTaskDialog projectId={1} templateId={9} onClose={() => {}} onCreated={() => {}} />);
    expect(await screen.findByText('1.0.2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Deploy' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ build_task_id: 3 }));
  });

  it('says "Build version is required" when the build template has no build', async () => {
    const deploy = makeTemplate(9, { name: 'Deploy', type: 'deploy', build_template_id: 5 });
    const { calls } = stubFetch({
      'GET /api/project/1/templates/9': () => json(200, deploy),
      'GET /api/project/1/templates/5/tasks?status=success': () => json(200, []),
    });
    renderWithProviders(<NewTaskDialog projectId={1} templateId={9} onClose={() => {}} onCreated={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Deploy' }));
    expect(await screen.findByText('Build version is required')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
