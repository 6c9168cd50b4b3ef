import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { WorkflowEdge } from '@gantry/contract';
import { renderWithProviders } from '../../../testing/render.tsx';
import { WorkflowGraph } from './workflow-graph.tsx';

const KEYS = ['build', 'approve', 'deploy'];
const EDGES: WorkflowEdge[] = [{ from: 'build', to: 'approve', on: 'success' }];

function renderGraph(props: { onConnect?: (from: string, to: string) => void; onSelect?: (key: string) => void }) {
  return renderWithProviders(
    <WorkflowGraph
      keys={KEYS}
      edges={EDGES}
      nodeLabel={(key) => `Step ${key}`}
      renderNode={(key) => <span>{key}</span>}
      onSelect={props.onSelect}
      onConnect={props.onConnect}
    />,
  );
}

/** A click from the keyboard (Enter or Space on a button): no pointer press before it, detail 0. */
const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }), { detail: 0 });
const handleOf = (key: string) => `Connect Step ${key} to a following step`;

describe('WorkflowGraph connections', () => {
  it('connects from the keyboard: Enter on a step handle, then Enter on the step that follows', () => {
    const onConnect = vi.fn();
    const onSelect = vi.fn();
    renderGraph({ onConnect, onSelect });
    press(handleOf('approve'));
    expect(screen.getByRole('status').textContent).toContain('Choose the step that follows Step approve');
    press('Step deploy');
    expect(onConnect).toHaveBeenCalledWith('approve', 'deploy');
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).toBeNull();

    // Once connected, a step opens again as before.
    press('Step deploy');
    expect(onSelect).toHaveBeenCalledWith('deploy');
  });

  it('cancels with Escape or the cancel button, and choosing the same step connects nothing', () => {
    const onConnect = vi.fn();
    renderGraph({ onConnect, onSelect: vi.fn() });
    const handle = screen.getByRole('button', { name: handleOf('build') });
    press(handleOf('build'));
    expect(handle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(handle, { key: 'Escape' });
    expect(screen.queryByRole('status')).toBeNull();
    expect(handle.getAttribute('aria-pressed')).toBe('false');

    press(handleOf('build'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('status')).toBeNull();

    press(handleOf('build'));
    press('Step build');
    expect(onConnect).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('has no handles where steps cannot be connected (a run, a reader)', () => {
    renderGraph({});
    expect(screen.queryByRole('button', { name: /Connect/ })).toBeNull();
    expect(screen.getByRole('group', { name: 'Step build' })).toBeTruthy();
  });
});
