// The processes a test run starts do without NODE_EXTRA_CA_CERTS: Node reads that file at every start (here, the
// system's whole CA bundle: some 40 ms of CPU per process, thousands of processes a run), and no test talks to a
// server whose certificate it would vouch for (every server in the tests is on loopback).
export default function setup(): () => void {
  const extraCaCerts = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
  return () => {
    if (extraCaCerts !== undefined) process.env.NODE_EXTRA_CA_CERTS = extraCaCerts;
  };
}
