import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { TooltipIconButton } from '../../../components/tooltip-icon-button.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { aliasesQuery, useAddAlias, useDeleteAlias } from '../api/integrations-queries.ts';
import { ALIAS_READERS } from './integration-access.ts';
import { SectionHeading } from './section-heading.tsx';
import { DeleteIconButton } from '../../../components/delete-icon-button.tsx';

interface AliasListProps {
  projectId: number;
  /** null: the project-wide aliases, which reach every integration with the global alias switch on. */
  integrationId: number | null;
  canManage: boolean;
  title: string;
  description: string;
}

/** The public URLs that start an integration, each with copy and delete, and an Add alias button. */
export function AliasList(props: AliasListProps) {
  const access = useProjectAccess(props.projectId);
  return access.can(ALIAS_READERS) ? <Aliases {...props} /> : null;
}

function Aliases({ projectId, integrationId, canManage, title, description }: AliasListProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const aliases = useQuery(aliasesQuery(projectId, integrationId));
  const add = useAddAlias(projectId, integrationId);
  const remove = useDeleteAlias(projectId, integrationId);

  const copy = (url: string) =>
    copyText(url).then(
      () => snackbar.showSuccess(t('integrations.aliasCopied')),
      (error: unknown) => snackbar.showError(t('integrations.cantCopy', { reason: getErrorMessage(error) })),
    );

  const addAlias = () => add.mutate(undefined, { onError: snackbar.showFailure });
  const removeAlias = (aliasId: number) => remove.mutate(aliasId, { onError: snackbar.showFailure });

  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <SectionHeading
        title={title}
        description={description}
        alignAction="center"
        action={
          canManage && !aliases.isError ? (
            <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={addAlias} disabled={add.isPending}>
              {t('integrations.addAlias')}
            </Button>
          ) : null
        }
      />
      {aliases.isPending ? (
        <Skeleton variant="text" width="60%" />
      ) : aliases.isError ? (
        // A failed load leaves the list unset and offers to load it again.
        <Button size="small" onClick={() => void aliases.refetch()}>
          {t('integrations.loadAliases')}
        </Button>
      ) : aliases.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
          {t('integrations.noAliases')}
        </Typography>
      ) : (
        <Stack
          component="ul"
          spacing={0.5}
          sx={{ listStyle: 'none', m: 0, p: 0 }}
          aria-label={t('integrations.aliasUrls')}
        >
          {aliases.data.map((alias) => (
            <Stack
              component="li"
              key={alias.id}
              direction="row"
              spacing={0.5}
              sx={{ alignItems: 'center', minWidth: 0 }}
            >
              <Box
                component="code"
                sx={{
                  flexGrow: 1,
                  minWidth: 0,
                  fontSize: 13,
                  px: 1,
                  py: 0.75,
                  borderRadius: 1,
                  bgcolor: 'action.hover',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  whiteSpace: 'nowrap',
                }}
                title={alias.url}
              >
                {alias.url}
              </Box>
              <TooltipIconButton
                title={t('integrations.copyAlias')}
                label={t('integrations.copyNamed', { url: alias.url })}
                onClick={() => void copy(alias.url)}
                size="small"
              >
                <ContentCopyIcon fontSize="small" />
              </TooltipIconButton>
              {canManage ? (
                <DeleteIconButton
                  title={t('integrations.deleteAlias')}
                  label={t('integrations.deleteAliasNamed', { url: alias.url })}
                  onClick={() => removeAlias(alias.id)}
                  disabled={remove.isPending && remove.variables === alias.id}
                />
              ) : null}
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
