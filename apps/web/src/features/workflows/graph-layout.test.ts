import { describe, expect, it } from 'vitest';
import type { WorkflowEdge } from '@gantry/contract';
import { computeDepths, findNodeAt, getHandlePoint, layoutGraph, NODE_HEIGHT, NODE_WIDTH } from './graph-layout.ts';

/** An edge from one step to another, taken when the first ends as `on` says (success unless told). */
const edge = (from: string, to: string, on: WorkflowEdge['on'] = 'success'): WorkflowEdge => ({ from, to, on });

describe('computeDepths', () => {
  it('puts a step one column after its deepest source', () => {
    const depths = computeDepths(
      ['a', 'b', 'c', 'd'],
      [edge('a', 'b'), edge('b', 'd'), edge('a', 'd', 'failure'), edge('c', 'd', 'always')],
    );
    expect(Object.fromEntries(depths)).toEqual({ a: 0, b: 1, c: 0, d: 2 });
  });

  it('stays bounded on a cycle and ignores edges to unknown steps', () => {
    const depths = computeDepths(['a', 'b'], [edge('a', 'b'), edge('b', 'a'), edge('a', 'ghost')]);
    expect([...depths.values()].every((depth) => depth <= 1)).toBe(true);
  });
});

describe('layoutGraph', () => {
  it('lays steps out in columns by depth and rows in list order, with edges between their sides', () => {
    const layout = layoutGraph(
      ['build', 'test', 'lint', 'deploy'],
      [edge('build', 'test'), edge('build', 'lint'), edge('test', 'deploy'), edge('lint', 'deploy')],
    );
    expect(layout.nodes.map(({ key, layer, row }) => [key, layer, row])).toEqual([
      ['build', 0, 0],
      ['test', 1, 0],
      ['lint', 1, 1],
      ['deploy', 2, 0],
    ]);
    const [build, test, lint] = layout.nodes;
    expect(test?.x).toBeGreaterThan((build?.x ?? 0) + NODE_WIDTH);
    expect(lint?.y).toBeGreaterThan((test?.y ?? 0) + NODE_HEIGHT);
    expect(layout.edges).toHaveLength(4);
    expect(layout.edges[0]?.path).toMatch(new RegExp(`^M ${NODE_WIDTH} ${NODE_HEIGHT / 2} C`));
    expect(layout.width).toBe((lint?.x ?? 0) * 2 + NODE_WIDTH);
    expect(layout.height).toBe((lint?.y ?? 0) + NODE_HEIGHT);
  });

  it('draws no edge from a step to itself', () => {
    expect(layoutGraph(['a'], [edge('a', 'a')]).edges).toEqual([]);
  });
});

describe('findNodeAt', () => {
  const layout = layoutGraph(['a', 'b', 'c'], [edge('a', 'b')]);
  const at = (key: string) => layout.nodes.find((node) => node.key === key)!;

  it('finds the step whose box holds a point, edges of the box included', () => {
    expect(findNodeAt(layout, at('b').x + 1, at('b').y + 1)).toBe('b');
    expect(findNodeAt(layout, at('c').x + NODE_WIDTH, at('c').y + NODE_HEIGHT)).toBe('c');
    expect(findNodeAt(layout, getHandlePoint(at('a')).x, getHandlePoint(at('a')).y)).toBe('a');
  });

  it('finds nothing between the boxes or outside the graph', () => {
    expect(findNodeAt(layout, at('a').x + NODE_WIDTH + 2, at('a').y + 2)).toBeUndefined();
    expect(findNodeAt(layout, at('c').x + 2, at('c').y + NODE_HEIGHT + 2)).toBeUndefined();
    expect(findNodeAt(layout, -1, -1)).toBeUndefined();
  });
});
