import type { WorkflowEdge } from '@gantry/contract';

/** Sizes of the drawn graph, in pixels. */
export const NODE_WIDTH = 192;
export const NODE_HEIGHT = 88;
const COLUMN_GAP = 48;
const ROW_GAP = 20;

interface LaidOutNode {
  key: string;
  /** The column: the length of the longest edge path from a start step. */
  layer: number;
  /** The place in the column, in the order the steps are listed. */
  row: number;
  x: number;
  y: number;
}

interface LaidOutEdge extends WorkflowEdge {
  /** An SVG path from the right side of the source to the left side of the target. */
  path: string;
}

export interface GraphLayout {
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
  width: number;
  height: number;
}

/**
 * Each step's depth: 0 for a step without incoming edges, else one more than its deepest source.
 * A cycle (a draft being edited) cannot push depths beyond the number of steps.
 */
export function computeDepths(keys: readonly string[], edges: readonly WorkflowEdge[]): Map<string, number> {
  const depth = new Map(keys.map((key) => [key, 0]));
  const usable = edges.filter((edge) => edge.from !== edge.to && depth.has(edge.from) && depth.has(edge.to));
  const limit = Math.max(0, keys.length - 1);
  for (let pass = 0; pass < keys.length; pass++) {
    let changed = false;
    for (const edge of usable) {
      const next = Math.min(limit, (depth.get(edge.from) ?? 0) + 1);
      if (next > (depth.get(edge.to) ?? 0)) {
        depth.set(edge.to, next);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return depth;
}

/** Places steps in columns by depth, one under the other in list order, and routes the edges between them. */
export function layoutGraph(keys: readonly string[], edges: readonly WorkflowEdge[]): GraphLayout {
  const depths = computeDepths(keys, edges);
  const rowsUsed: number[] = [];
  const nodes: LaidOutNode[] = keys.map((key) => {
    const layer = depths.get(key) ?? 0;
    const row = rowsUsed[layer] ?? 0;
    rowsUsed[layer] = row + 1;
    return { key, layer, row, x: layer * (NODE_WIDTH + COLUMN_GAP), y: row * (NODE_HEIGHT + ROW_GAP) };
  });
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const laidEdges: LaidOutEdge[] = [];
  for (const edge of edges) {
    const from = byKey.get(edge.from);
    const to = byKey.get(edge.to);
    if (!from || !to || from === to) continue;
    const { x: x1, y: y1 } = getHandlePoint(from);
    const x2 = to.x;
    const y2 = to.y + NODE_HEIGHT / 2;
    const bend = Math.max(32, Math.abs(x2 - x1) / 2);
    laidEdges.push({ ...edge, path: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}` });
  }
  const layers = rowsUsed.length;
  const rows = Math.max(0, ...rowsUsed);
  return {
    nodes,
    edges: laidEdges,
    width: layers === 0 ? 0 : layers * NODE_WIDTH + (layers - 1) * COLUMN_GAP,
    height: rows === 0 ? 0 : rows * NODE_HEIGHT + (rows - 1) * ROW_GAP,
  };
}

/** The step whose box holds the point (graph coordinates), if any: where a dragged connection is dropped. */
export function findNodeAt(layout: GraphLayout, x: number, y: number): string | undefined {
  return layout.nodes.find(
    (node) => x >= node.x && x <= node.x + NODE_WIDTH && y >= node.y && y <= node.y + NODE_HEIGHT,
  )?.key;
}

/** The point a connection leaves a step from: the middle of its right side, where its handle is. */
export const getHandlePoint = (node: { x: number; y: number }) => ({
  x: node.x + NODE_WIDTH,
  y: node.y + NODE_HEIGHT / 2,
});
