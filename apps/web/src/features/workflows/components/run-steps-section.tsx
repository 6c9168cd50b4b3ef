import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A section of the run page under the graph (approvals, step outputs): a heading, then one card a step. */
export function RunStepsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack spacing={2} component="section" aria-label={title} sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2" sx={{ fontSize: 16, fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

/** One step's card in a RunStepsSection, named for assistive technology by `label`. */
export function RunStepCard({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={label} sx={{ p: 2 }}>
      {children}
    </Paper>
  );
}
