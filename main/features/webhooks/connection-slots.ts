import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The listener's connection slots, against slow senders (slowloris): `server.maxConnections` turns
 * away the newcomer when full, so a few hundred sockets that trickle their headers would keep every
 * genuine delivery out until their header timeout. Here a newcomer past the cap pushes out the
 * connection idle the longest instead: one that has not completed a request head yet, or a kept-
 * alive one between requests. Only when every connection is in the middle of a request (a body
 * being read, an answer being written) is the newcomer turned away.
 */
export function limitConnections(server: Server, max: number, onShed: (socket: Socket) => void): void {
  // Insertion order is age: a socket is (re)inserted when it connects or finishes a request.
  const idle = new Set<Socket>();
  const busy = new Set<Socket>();

  server.on('connection', (socket: Socket) => {
    idle.add(socket);
    socket.once('close', () => {
      idle.delete(socket);
      busy.delete(socket);
    });
    if (idle.size + busy.size <= max) return;
    const oldest = idle.values().next().value;
    const victim = oldest !== undefined && oldest !== socket ? oldest : socket;
    idle.delete(victim);
    onShed(victim);
    victim.destroy();
  });

  server.on('request', (req, res) => {
    const socket = req.socket;
    idle.delete(socket);
    busy.add(socket);
    res.once('close', () => {
      busy.delete(socket);
      if (!socket.destroyed) idle.add(socket);
    });
  });
}
