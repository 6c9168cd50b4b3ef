import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { WorkflowStepRun } from '@gantry/contract';
import { RunStepCard, RunStepsSection } from './run-steps-section.tsx';

/** What each step's task published for later steps (secrets already masked by the server), under the graph. */
export function StepOutputsSection({ steps }: { steps: readonly WorkflowStepRun[] }) {
  const { t } = useTranslation();
  const withOutputs = steps.filter((step) => Object.keys(step.outputs).length > 0);
  if (withOutputs.length === 0) return null;
  return (
    <RunStepsSection title={t('workflows.stepOutputs')}>
      {withOutputs.map((step) => (
        <RunStepCard key={step.key} label={t('workflows.stepOutputsOf', { name: step.key })}>
          <Box component="code" sx={{ fontWeight: 600, fontSize: 14 }}>
            {step.key}
          </Box>
          <Table size="small" sx={{ mt: 1 }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: '30%' }}>{t('workflows.outputName')}</TableCell>
                <TableCell>{t('workflows.outputValue')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {Object.entries(step.outputs).map(([name, value]) => (
                <TableRow key={name}>
                  <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace' }}>
                    {name}
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                    {value}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </RunStepCard>
      ))}
    </RunStepsSection>
  );
}
