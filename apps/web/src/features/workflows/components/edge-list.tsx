import { useTranslation } from 'react-i18next';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { WorkflowEdge } from '@gantry/contract';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { EDGE_KINDS } from '../workflow-draft.ts';

interface EdgeListProps {
  edges: readonly WorkflowEdge[];
  stepLabel: (key: string) => string;
  editable: boolean;
  onChange: (edges: WorkflowEdge[]) => void;
}

/** The graph's edges as a list: each one's kind can be changed or the edge removed. */
export function EdgeList({ edges, stepLabel, editable, onChange }: EdgeListProps) {
  const { t } = useTranslation();
  if (edges.length === 0) return null;
  return (
    <Stack spacing={1} component="section" aria-label={t('workflows.edges')}>
      <Typography variant="subtitle2">{t('workflows.edges')}</Typography>
      {edges.map((edge, index) => {
        const label = t('workflows.edgeNamed', { from: stepLabel(edge.from), to: stepLabel(edge.to) });
        return (
          <Stack
            key={`${edge.from}-${edge.to}`}
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
          >
            <Typography variant="body2" sx={{ minWidth: 0, flex: '1 1 160px', overflowWrap: 'anywhere' }}>
              {label}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
              <ChoiceSelect
                size="small"
                value={edge.on}
                choices={EDGE_KINDS.map((kind) => ({ value: kind, label: t(`workflows.edgeKinds.${kind}`) }))}
                disabled={!editable}
                onChange={(on) => onChange(edges.map((current, i) => (i === index ? { ...current, on } : current)))}
                slotProps={{ htmlInput: { 'aria-label': t('workflows.edgeOnNamed', { name: label }) } }}
                sx={{ width: 140 }}
              />
              {editable ? (
                <IconButton
                  aria-label={t('workflows.removeEdgeNamed', { name: label })}
                  onClick={() => onChange(edges.filter((_, i) => i !== index))}
                >
                  <DeleteOutlineIcon />
                </IconButton>
              ) : null}
            </Stack>
          </Stack>
        );
      })}
    </Stack>
  );
}
