import { z } from 'zod';
import { INCORRECT_URL_MESSAGE, RepositoryBody, getGitUrlType, requiredText } from '@gantry/contract';

/**
 * The contract's repository rules, with the URL and branch checks also run while other fields are
 * still missing (zod skips refinements of an object whose fields failed), so one save reports all.
 */
export const RepositoryFormSchema = z.object(RepositoryBody.shape).superRefine(
  (repo, ctx) => {
    const url = typeof repo.git_url === 'string' ? repo.git_url.trim() : '';
    if (url === '') return;
    const type = getGitUrlType(url);
    if (!type) ctx.addIssue({ code: 'custom', path: ['git_url'], message: INCORRECT_URL_MESSAGE });
    if (type !== 'local' && !(typeof repo.git_branch === 'string' && repo.git_branch.trim())) {
      ctx.addIssue({ code: 'custom', path: ['git_branch'], message: requiredText('Branch') });
    }
  },
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);
export type RepositoryFormInput = z.input<typeof RepositoryFormSchema>;
export type RepositoryFormValues = z.output<typeof RepositoryFormSchema>;
