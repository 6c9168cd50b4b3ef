import { z } from 'zod';
import { AppBody, AppId } from '@gantry/contract';
import type { App } from '@gantry/contract';
import { cleanStringList } from '../../../components/string-list-editor.tsx';

/** The app form: the contract's body, with the id required for a new app and the priority typed as text. */
export function buildAppFormSchema(isNew: boolean) {
  return AppBody.extend({
    id: isNew ? AppId : z.string(),
    priority: z.preprocess(
      (value) => (value === '' || value === null || value === undefined ? undefined : Number(value)),
      AppBody.shape.priority,
    ),
    args: z.array(z.string()).transform(cleanStringList),
  });
}
export type AppFormValues = z.output<ReturnType<typeof buildAppFormSchema>>;

export interface AppFormFields {
  id: string;
  title: string;
  icon: string;
  color: string;
  dark_color: string;
  path: string;
  priority: string;
  args: string[];
}

export function getAppFormDefaults(app?: App): AppFormFields {
  return {
    id: app?.id ?? '',
    title: app?.title ?? '',
    icon: app?.icon ?? '',
    color: app?.color ?? '',
    dark_color: app?.dark_color ?? '',
    path: app?.path ?? '',
    priority: app ? String(app.priority) : '',
    args: app?.args ?? [],
  };
}
