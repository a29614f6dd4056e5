package perfetto

//go:generate protoc --go_out=. --go_opt=paths=source_relative pb/trace.proto pb/track.proto
