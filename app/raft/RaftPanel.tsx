// The etcd/Raft view: the ring with its legend and partition builder, the
// members' logs and the applied keys.
import { KvTable } from './KvTable';
import { Legend } from './Legend';
import { LogStrips } from './LogStrips';
import { PartitionBar } from './PartitionBar';
import { RaftRing } from './RaftRing';

export function RaftPanel() {
  return (
    <div className="raft-panel">
      <PartitionBar />
      <RaftRing />
      <Legend />
      <LogStrips />
      <KvTable />
    </div>
  );
}
