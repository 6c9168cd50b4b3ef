import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { FormProvider, useForm } from 'react-hook-form';
import type { UseFormReturn } from 'react-hook-form';
import { renderWithProviders } from '../../../testing/render.tsx';
import { getTemplateFormDefaults } from './template-form.ts';
import type { TemplateFormFields } from './template-form.ts';
import { TemplateRunSettings } from './template-run-settings.tsx';

let form: UseFormReturn<TemplateFormFields> | undefined;

function InTemplateForm() {
  form = useForm<TemplateFormFields>({
    defaultValues: getTemplateFormDefaults({ app: 'bash', viewId: undefined, template: undefined }),
  });
  return (
    <FormProvider {...form}>
      <TemplateRunSettings projectId={1} app="bash" keys={[]} />
    </FormProvider>
  );
}

describe("the template form's run settings", () => {
  it("shows the approval rule's message from the form and asks for numbers on the retry fields", async () => {
    renderWithProviders(<InTemplateForm />);
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => form?.setError('approval', { message: 'Approvers are required' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Approvers are required');
    expect(screen.getByLabelText('Retries').getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByLabelText('Delay before a retry (seconds)').getAttribute('inputmode')).toBe('numeric');
  });
});
