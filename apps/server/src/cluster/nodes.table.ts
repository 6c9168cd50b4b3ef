export interface ServerNodeTable {
  id: string;
  started: string;
  heartbeat: string;
}

export interface ClusterTable {
  id: string;
}
