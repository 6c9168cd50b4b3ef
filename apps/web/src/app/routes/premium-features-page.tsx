import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { PREMIUM_FEATURES } from '@gantry/contract';
import { Page } from '../../components/page.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SecretValue } from '../../components/secret-value.tsx';
import { currentUserQuery, systemInfoQuery } from '../../lib/shared-queries.ts';

const EVERY_FEATURE = JSON.stringify(PREMIUM_FEATURES);
/** On a phone the setting value goes under the feature's name instead of a column of its own. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } };
const NARROW_ONLY = { display: { xs: 'block', sm: 'none' } };

/**
 * Where a notice of a feature this server does not offer leads ("available only in the PRO
 * version"): Gantry has every feature, so the "upgrade" is an administrator's setting. Open to every
 * signed-in user, since anyone may meet the notice; it says which features are on and how to turn
 * the others on.
 */
export function PremiumFeaturesPage() {
  const { t } = useTranslation();
  const info = useQuery(systemInfoQuery);
  const user = useQuery(currentUserQuery);
  return (
    <Page>
      <PageHeader title={t('premiumFeatures.title')} />
      <Stack spacing={3} sx={{ maxWidth: 760 }}>
        <Typography>{t('premiumFeatures.intro')}</Typography>
        <Paper variant="outlined">
          <Table size="small" aria-label={t('premiumFeatures.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('premiumFeatures.feature')}</TableCell>
                <TableCell sx={WIDE_ONLY}>{t('premiumFeatures.setting')}</TableCell>
                <TableCell>{t('premiumFeatures.state')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {PREMIUM_FEATURES.map((feature) => {
                const on = info.data?.premium_features[feature] === true;
                return (
                  <TableRow key={feature}>
                    <TableCell>
                      {t(`premiumFeatures.names.${feature}`)}
                      <Box component="code" sx={NARROW_ONLY}>
                        {feature}
                      </Box>
                    </TableCell>
                    <TableCell sx={WIDE_ONLY}>
                      <code>{feature}</code>
                    </TableCell>
                    <TableCell>
                      {info.data ? (
                        <Chip
                          size="small"
                          color={on ? 'success' : 'default'}
                          variant="outlined"
                          label={on ? t('premiumFeatures.on') : t('premiumFeatures.off')}
                        />
                      ) : null}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Paper>
        <Typography variant="h6" component="h2">
          {t('premiumFeatures.howTitle')}
        </Typography>
        <Typography>{t('premiumFeatures.how')}</Typography>
        <Stack spacing={1}>
          <Typography variant="subtitle2">{t('premiumFeatures.environment')}</Typography>
          <SecretValue value={`GANTRY_PREMIUM_FEATURES='${EVERY_FEATURE}'`} label={t('premiumFeatures.environment')} />
          <Typography variant="subtitle2">{t('premiumFeatures.file')}</Typography>
          <SecretValue value={`"premium_features": ${EVERY_FEATURE}`} label={t('premiumFeatures.file')} />
        </Stack>
        {user.data && !user.data.admin ? (
          <Typography color="text.secondary">{t('premiumFeatures.askAdmin')}</Typography>
        ) : null}
      </Stack>
    </Page>
  );
}
