import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ArgsEditor } from './args-editor.tsx';

describe('ArgsEditor', () => {
  it('refuses a blank argument with "Argument is required" at the field and adds the trimmed name otherwise', async () => {
    const onChange = vi.fn();
    renderWithProviders(<ArgsEditor label="CLI args" value={['--check']} onChange={onChange} />);
    const field = await screen.findByRole('textbox', { name: 'Add argument' });
    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add argument' }));
    const message = await screen.findByText('Argument is required');
    expect(field.getAttribute('aria-describedby')).toBe(message.id);
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: '  --diff ' } });
    expect(screen.queryByText('Argument is required')).toBeNull();
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith(['--check', '--diff']);
  });
});
