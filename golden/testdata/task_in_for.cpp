/* C++: a loop over random-access iterators names its tasks' iterations;
 * a task in a lambda or a local class does not read them. */
#include <vector>

void work(int);

void loops(std::vector<int> &v)
{
  #pragma omp parallel
  {
    #pragma omp for
    for (std::vector<int>::iterator it = v.begin(); it != v.end(); ++it) {
      #pragma omp task
      work(*it);
    }
    #pragma omp for
    for (int i = 0; i < (int)v.size(); i++) {
      #pragma omp task
      work(v[i]);
      auto f = [i] {
        #pragma omp task
        work(i);
      };
      f();
    }
  }
}
