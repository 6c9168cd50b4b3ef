import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { FormProvider, useForm } from 'react-hook-form';
import type { ReactNode } from 'react';
import { renderWithProviders } from '../testing/render.tsx';
import { FormTextField } from './form-fields.tsx';

function InForm({ children }: { children: ReactNode }) {
  const form = useForm({ defaultValues: { url: '', count: '' } });
  return <FormProvider {...form}>{children}</FormProvider>;
}

const attributesOf = (label: string) => {
  const input = screen.getByLabelText(label);
  return ['spellcheck', 'autocapitalize', 'autocorrect', 'inputmode'].map((name) => input.getAttribute(name));
};

describe('a text field of a form', () => {
  it('leaves machine text as typed: no spell check, capitals nor corrections; keeps its own input props', () => {
    renderWithProviders(
      <InForm>
        <FormTextField
          name="url"
          label="URL"
          verbatim
          slotProps={{ htmlInput: { maxLength: 10, style: { fontFamily: 'monospace' } } }}
        />
      </InForm>,
    );
    expect(attributesOf('URL')).toEqual(['false', 'none', 'off', null]);
    const input = screen.getByLabelText('URL');
    expect(input.getAttribute('maxlength')).toBe('10');
    expect(input.style.fontFamily).toBe('monospace');
  });

  it('asks phones for a numeric keyboard for a number, and leaves prose to the browser', () => {
    renderWithProviders(
      <InForm>
        <FormTextField name="count" label="Count" numeric />
        <FormTextField name="url" label="Notes" />
      </InForm>,
    );
    expect(attributesOf('Count')).toEqual([null, null, null, 'numeric']);
    expect(attributesOf('Notes')).toEqual([null, null, null, null]);
  });
});
