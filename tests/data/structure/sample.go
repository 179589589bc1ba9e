package main

import "fmt"

// Server serves.
type Server struct {
	Port int
}

// Start starts.
func (s *Server) Start() error {
	if s.Port == 0 {
		return nil
	}
	return nil
}

func main() {
	fmt.Println("hi")
}
