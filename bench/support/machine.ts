import os from 'node:os';

/** What a figure depends on besides the code: the machine and how busy it was. */
export interface MachineNote {
  cores: number;
  cpu: string;
  node: string;
  loadAverage: [number, number, number];
}

export function machineNow(): MachineNote {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverage: [round2(one), round2(five), round2(fifteen)],
  };
}

/** "load 2.31" for a bench's own lines: figures on a busy machine are lower bounds. */
export const loadNote = (): string => `load ${round2(os.loadavg()[0] ?? 0)}`;

const round2 = (value: number) => Math.round(value * 100) / 100;
