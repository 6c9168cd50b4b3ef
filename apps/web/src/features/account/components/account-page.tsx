import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { currentUserQuery } from '../../../lib/shared-queries.ts';
import { storage } from '../../../lib/storage.ts';
import { ApiTokensSection } from './api-tokens-section.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';
import { paths } from '../../../lib/paths.ts';

/** The security half of the edit-account area: the second factor and personal API tokens. */
export function AccountPage() {
  const { t } = useTranslation();
  const user = useQuery(currentUserQuery);
  const lastProjectId = storage.getLastProjectId();
  return (
    <Page>
      <PageHeader title={t('account.title')} backTo={paths.back(lastProjectId)} />
      <Stack spacing={4}>
        {user.data ? <TwoFactorSection user={user.data} /> : null}
        <ApiTokensSection />
      </Stack>
    </Page>
  );
}
