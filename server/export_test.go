package server

// GateSessions is how many MCP sessions the gate remembers a set for:
// tests check that ended sessions are forgotten.
func (s *Server) GateSessions() int {
	if s.gate == nil {
		return 0
	}
	s.gate.mu.Lock()
	defer s.gate.mu.Unlock()
	return len(s.gate.sessions)
}
