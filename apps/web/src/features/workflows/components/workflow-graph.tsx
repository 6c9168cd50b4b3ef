import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import type { WorkflowEdge } from '@gantry/contract';
import { NODE_HEIGHT, NODE_WIDTH, findNodeAt, getHandlePoint, layoutGraph } from '../graph-layout.ts';
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
  /**
   * Gives each box a handle to connect it to a following step: dragged onto another box, or pressed
   * (Enter, Space, a click) and then another box chosen.
   */
  onConnect?: (from: string, to: string) => void;
}

const MARGIN = 8;
const HANDLE_SIZE = 18;
/** A press that moves less than this is a click on the handle, not a drag. */
const DRAG_THRESHOLD = 4;

interface Point {
  x: number;
  y: number;
}
/** A connection being made from a step: followed by the pointer while dragged, else waiting for a step to be chosen. */
interface Connecting {
  from: string;
  pointer: Point | null;
}

/** A workflow's steps in columns by depth with their edges, coloured by kind (success, failure, always). */
export function WorkflowGraph({
  keys,
  edges,
  renderNode,
  nodeLabel,
  nodeColor,
  onSelect,
  onConnect,
}: WorkflowGraphProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const layout = useMemo(() => layoutGraph(keys, edges), [keys, edges]);
  const canvas = useRef<HTMLDivElement>(null);
  const pressedAt = useRef<Point | null>(null);
  const [connecting, setConnecting] = useState<Connecting | null>(null);
  const nodesByKey = useMemo(() => new Map(layout.nodes.map((node) => [node.key, node])), [layout.nodes]);
  const dropTarget =
    connecting?.pointer && findNodeAt(layout, connecting.pointer.x, connecting.pointer.y) !== connecting.from
      ? findNodeAt(layout, connecting.pointer.x, connecting.pointer.y)
      : undefined;
  const picking = connecting !== null && connecting.pointer === null;

  /** The pointer's place in graph coordinates (the layout's, without the margin). */
  const toGraph = (event: PointerEvent): Point => {
    const rect = canvas.current?.getBoundingClientRect();
    return { x: event.clientX - (rect?.left ?? 0) - MARGIN, y: event.clientY - (rect?.top ?? 0) - MARGIN };
  };
  const connect = (from: string, to: string) => {
    setConnecting(null);
    if (from !== to) onConnect?.(from, to);
  };
  const handleEvents = (key: string) => ({
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (event.button !== 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      const point = toGraph(event);
      pressedAt.current = point;
      setConnecting({ from: key, pointer: point });
    },
    onPointerMove: (event: PointerEvent<HTMLButtonElement>) => {
      if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
      const point = toGraph(event);
      setConnecting((current) => (current?.pointer ? { ...current, pointer: point } : current));
    },
    onPointerUp: (event: PointerEvent<HTMLButtonElement>) => {
      const point = toGraph(event);
      const start = pressedAt.current ?? point;
      pressedAt.current = null;
      const target = findNodeAt(layout, point.x, point.y);
      if (target && target !== key) connect(key, target);
      // A press without a drag picks the step to connect from, as the keyboard does.
      else if (Math.hypot(point.x - start.x, point.y - start.y) < DRAG_THRESHOLD)
        setConnecting({ from: key, pointer: null });
      else setConnecting(null);
    },
    onPointerCancel: () => setConnecting(null),
    // A click from the keyboard (Enter, Space) has no pointer press before it: detail is 0.
    onClick: (event: { detail: number }) => {
      if (event.detail === 0) setConnecting((current) => (current?.from === key ? null : { from: key, pointer: null }));
    },
  });
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && connecting) {
      event.stopPropagation();
      setConnecting(null);
    }
  };
  const fromPoint = connecting ? nodesByKey.get(connecting.from) : undefined;
  const edgeColors: Record<EdgeKind, string> = {
    success: theme.palette.success.main,
    failure: theme.palette.error.main,
    always: theme.palette.text.secondary,
  };

  return (
    <Box onKeyDown={cancelOnEscape}>
      {picking ? (
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', mb: 1, px: 1.5, py: 0.5, borderRadius: 1, bgcolor: 'action.selected' }}
        >
          <Box role="status" sx={{ flexGrow: 1, fontSize: 14 }}>
            {t('workflows.connectPick', { name: nodeLabel(connecting.from) })}
          </Box>
          <Button size="small" onClick={() => setConnecting(null)}>
            {t('common.cancel')}
          </Button>
        </Stack>
      ) : null}
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
          ref={canvas}
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
            const highlighted = node.key === dropTarget || node.key === connecting?.from;
            const box = {
              position: 'absolute',
              left: node.x + MARGIN,
              top: node.y + MARGIN,
              width: NODE_WIDTH,
              height: NODE_HEIGHT,
              border: 2,
              borderColor: highlighted ? 'primary.main' : (nodeColor?.(node.key) ?? 'divider'),
              borderRadius: 1,
              bgcolor: 'background.paper',
              px: 1.25,
              py: 0.75,
              overflow: 'hidden',
              textAlign: 'left',
              display: 'block',
            } as const;
            const selectable = onSelect ?? (onConnect ? () => undefined : undefined);
            const handle = getHandlePoint(node);
            return (
              <Box key={node.key} sx={{ display: 'contents' }}>
                {selectable ? (
                  <ButtonBase
                    aria-label={nodeLabel(node.key)}
                    onClick={() => (picking ? connect(connecting.from, node.key) : selectable(node.key))}
                    sx={{ ...box, '&:hover, &.Mui-focusVisible': { borderColor: 'primary.main' } }}
                  >
                    {renderNode(node.key)}
                  </ButtonBase>
                ) : (
                  <Box role="group" aria-label={nodeLabel(node.key)} sx={box}>
                    {renderNode(node.key)}
                  </Box>
                )}
                {onConnect ? (
                  <ButtonBase
                    aria-label={t('workflows.connectFrom', { name: nodeLabel(node.key) })}
                    title={t('workflows.connectFrom', { name: nodeLabel(node.key) })}
                    aria-pressed={connecting?.from === node.key}
                    {...handleEvents(node.key)}
                    sx={{
                      position: 'absolute',
                      left: handle.x + MARGIN - HANDLE_SIZE / 2,
                      top: handle.y + MARGIN - HANDLE_SIZE / 2,
                      width: HANDLE_SIZE,
                      height: HANDLE_SIZE,
                      borderRadius: '50%',
                      border: 3,
                      borderColor: 'background.paper',
                      bgcolor: connecting?.from === node.key ? 'primary.dark' : 'primary.main',
                      cursor: 'crosshair',
                      touchAction: 'none',
                      zIndex: 1,
                      '&:hover, &.Mui-focusVisible': {
                        transform: 'scale(1.25)',
                        outline: 2,
                        outlineColor: 'primary.main',
                      },
                    }}
                  />
                ) : null}
              </Box>
            );
          })}
          {connecting?.pointer && fromPoint ? (
            // Over the boxes, unlike the edges: the line follows the pointer across them.
            <Box
              component="svg"
              aria-hidden
              width={layout.width + 2 * MARGIN}
              height={layout.height + 2 * MARGIN}
              sx={{ position: 'absolute', inset: 0, overflow: 'visible', pointerEvents: 'none', zIndex: 2 }}
            >
              <g transform={`translate(${MARGIN} ${MARGIN})`}>
                <line
                  x1={getHandlePoint(fromPoint).x}
                  y1={getHandlePoint(fromPoint).y}
                  x2={connecting.pointer.x}
                  y2={connecting.pointer.y}
                  stroke={theme.palette.primary.main}
                  strokeWidth={2}
                  strokeDasharray="4 3"
                />
              </g>
            </Box>
          ) : null}
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
        {onConnect ? <Box sx={{ color: 'text.secondary' }}>{t('workflows.dragHint')}</Box> : null}
      </Stack>
    </Box>
  );
}
