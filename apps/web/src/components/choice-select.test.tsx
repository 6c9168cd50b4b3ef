import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../testing/render.tsx';
import { ChoiceSelect } from './choice-select.tsx';

describe('ChoiceSelect', () => {
  it('shows the chosen label and hands back the picked choice with its own type', async () => {
    const onChange = vi.fn<(days: number) => void>();
    renderWithProviders(
      <ChoiceSelect
        label="Expires in"
        value={30}
        choices={[
          { value: 0, label: 'Never' },
          { value: 30, label: '30 days' },
        ]}
        onChange={onChange}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Expires in' });
    expect(select.textContent).toBe('30 days');
    fireEvent.mouseDown(select);
    fireEvent.click(within(await screen.findByRole('listbox')).getByText('Never'));
    expect(onChange).toHaveBeenCalledWith(0);
  });
});
