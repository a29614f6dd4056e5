# Shared by the example Makefiles. Builds go through the gopari wrapper:
#   make            instrumented build
#   make WRAP=      plain build, to compare with
#   make run        run the program; the profile goes to gopari-*/
GOPARI ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../bin/gopari)
WRAP   ?= $(GOPARI) cc
CC     := $(WRAP) gcc
CXX    := $(WRAP) g++
CFLAGS ?= -O2 -g -fopenmp -Wall
CXXFLAGS ?= -O2 -g -fopenmp -Wall
LDFLAGS ?= -fopenmp
