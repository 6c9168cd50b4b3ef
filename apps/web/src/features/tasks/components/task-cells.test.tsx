import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render.tsx';
import { TaskDuration } from './task-cells.tsx';

describe('TaskDuration', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-05-01T10:00:05Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('ticks every second while the task runs', () => {
    renderWithProviders(
      <span data-testid="duration">
        <TaskDuration start="2026-05-01T10:00:00Z" end={null} status="running" />
      </span>,
    );
    expect(screen.getByTestId('duration').textContent).toBe('5s');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByTestId('duration').textContent).toBe('6s');
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTestId('duration').textContent).toBe('1m 6s');
  });

  it('stands still once the task ended, and shows a dash before it started', () => {
    renderWithProviders(
      <>
        <span data-testid="finished">
          <TaskDuration start="2026-05-01T09:00:00Z" end="2026-05-01T10:02:03Z" status="success" />
        </span>
        <span data-testid="waiting">
          <TaskDuration start={null} end={null} status="waiting" />
        </span>
      </>,
    );
    expect(screen.getByTestId('finished').textContent).toBe('1h 2m 3s');
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(screen.getByTestId('finished').textContent).toBe('1h 2m 3s');
    expect(screen.getByTestId('waiting').textContent).toBe('—');
    expect(vi.getTimerCount()).toBeLessThanOrEqual(1);
  });
});
