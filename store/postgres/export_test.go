package postgres

// ChannelOf is the store's notification channel, for tests that find its
// listener among the database's sessions.
func ChannelOf(s *Store) string { return s.q.channel }
