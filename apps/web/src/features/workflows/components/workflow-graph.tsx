import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import type { WorkflowEdge } from '@gantry/contract';
import { NODE_HEIGHT, NODE_WIDTH, layoutGraph } from '../graph-layout.ts';
import { EDGE_KINDS } from '../workflow-draft.ts';
import type { EdgeKind } from '../workflow-draft.ts';

interface WorkflowGraphProps {
  /** Step keys in their listed order. */
  keys: readonly string[];
  edges: readonly WorkflowEdge[];
  /** What a step's box shows. */
  renderNode: (key: string) => ReactNode;
  /** The accessible name of a step's box. */
  nodeLabel: (key: string) => string;
  /** The box's border colour (a theme palette path), e.g. a run step's status. */
  nodeColor?: (key: string) => string | undefined;
  /** Makes the boxes buttons (the editor opens the step). */
  onSelect?: (key: string) => void;
}

const MARGIN = 8;

/** A workflow's steps in columns by depth with their edges, coloured by kind (success, failure, always). */
export function WorkflowGraph({ keys, edges, renderNode, nodeLabel, nodeColor, onSelect }: WorkflowGraphProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const layout = useMemo(() => layoutGraph(keys, edges), [keys, edges]);
  const edgeColors: Record<EdgeKind, string> = {
    success: theme.palette.success.main,
    failure: theme.palette.error.main,
    always: theme.palette.text.secondary,
  };

  return (
    <Box>
      <Box
        sx={{
          overflowX: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'background.default',
          p: 1,
        }}
      >
        <Box
          role="group"
          aria-label={t('workflows.graph')}
          sx={{ position: 'relative', width: layout.width + 2 * MARGIN, height: layout.height + 2 * MARGIN }}
        >
          <Box
            component="svg"
            aria-hidden
            width={layout.width + 2 * MARGIN}
            height={layout.height + 2 * MARGIN}
            sx={{ position: 'absolute', inset: 0, overflow: 'visible' }}
          >
            <defs>
              {EDGE_KINDS.map((kind) => (
                <marker
                  key={kind}
                  id={`workflow-arrow-${kind}`}
                  viewBox="0 0 10 10"
                  refX="9"
                  refY="5"
                  markerWidth="7"
                  markerHeight="7"
                  orient="auto-start-reverse"
                >
                  <path d="M 0 0 L 10 5 L 0 10 z" fill={edgeColors[kind]} />
                </marker>
              ))}
            </defs>
            <g transform={`translate(${MARGIN} ${MARGIN})`}>
              {layout.edges.map((edge) => (
                <path
                  key={`${edge.from}-${edge.to}`}
                  d={edge.path}
                  fill="none"
                  stroke={edgeColors[edge.on]}
                  strokeWidth={2}
                  strokeDasharray={edge.on === 'always' ? '6 4' : undefined}
                  markerEnd={`url(#workflow-arrow-${edge.on})`}
                />
              ))}
            </g>
          </Box>
          {layout.nodes.map((node) => {
            const box = {
              position: 'absolute',
              left: node.x + MARGIN,
              top: node.y + MARGIN,
              width: NODE_WIDTH,
              height: NODE_HEIGHT,
              border: 2,
              borderColor: nodeColor?.(node.key) ?? 'divider',
              borderRadius: 1,
              bgcolor: 'background.paper',
              px: 1.25,
              py: 0.75,
              overflow: 'hidden',
              textAlign: 'left',
              display: 'block',
            } as const;
            return onSelect ? (
              <ButtonBase
                key={node.key}
                aria-label={nodeLabel(node.key)}
                onClick={() => onSelect(node.key)}
                sx={{ ...box, '&:hover, &.Mui-focusVisible': { borderColor: 'primary.main' } }}
              >
                {renderNode(node.key)}
              </ButtonBase>
            ) : (
              <Box key={node.key} role="group" aria-label={nodeLabel(node.key)} sx={box}>
                {renderNode(node.key)}
              </Box>
            );
          })}
        </Box>
      </Box>
      <Stack direction="row" useFlexGap spacing={2} sx={{ mt: 1, flexWrap: 'wrap', fontSize: 12 }}>
        {EDGE_KINDS.map((kind) => (
          <Stack key={kind} direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary' }}>
            <svg width="28" height="8" aria-hidden>
              <line
                x1="0"
                y1="4"
                x2="28"
                y2="4"
                stroke={edgeColors[kind]}
                strokeWidth="2"
                strokeDasharray={kind === 'always' ? '6 4' : undefined}
              />
            </svg>
            <span>{t(`workflows.edgeKinds.${kind}`)}</span>
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
