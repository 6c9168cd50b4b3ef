import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Template } from '@gantry/contract';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { loadTemplate, loadTemplateRefs, useCreateTemplate, useDeleteTemplate } from '../api/templates-queries.ts';
import { toCopyBody } from './template-form.ts';
import { NEW_TASK_PARAM, useHrefWithParam } from './template-helpers.ts';
import { paths } from '../../../lib/paths.ts';

/** Run, copy and delete, as the list and the template page both offer them. */
export function useTemplateActions(projectId: number, viewId: number | undefined) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const hrefWithParam = useHrefWithParam();
  const create = useCreateTemplate(projectId);
  const deletion = useItemDelete<Template>({
    projectId,
    texts: deleteTextsOf('templates'),
    remove: useDeleteTemplate(projectId),
    loadRefs: (id) => loadTemplateRefs(projectId, id),
  });

  /** Opens the new task dialog (owned by the tasks screens) over the current page. */
  const run = (template: Template) => navigate(hrefWithParam(NEW_TASK_PARAM, template.id));

  /** Reads the template fresh, saves it as "<name> (copy)" and opens the copy. */
  const copy = async (template: Template) => {
    try {
      const source = await loadTemplate(projectId, template.id);
      const created = await create.mutateAsync(toCopyBody(source, `${source.name} (copy)`));
      snackbar.showSuccess(t('templates.copied', { name: created.name }));
      void navigate(paths.template(projectId, created.id, { viewId }));
    } catch (error) {
      snackbar.showFailure(error);
    }
  };

  return {
    run,
    copy,
    copying: create.isPending,
    requestDelete: deletion.request,
    deleting: deletion.busy,
    element: deletion.element,
  };
}
